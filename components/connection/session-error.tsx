/** A failed session's error in plain words: message, hint, and every detail that is present. */
import type { ReactNode } from 'react';
import type { LoupeError } from '../../lib/wire/wire.ts';
import { Pre, Text } from '../ui/text.tsx';

/** One term and its value in a definition list (shared with the OAuth panel). */
export function Fact({ term, children }: { term: string; children: ReactNode }): ReactNode {
  return (
    <div className="flex flex-wrap gap-x-2">
      <dt className="font-medium">{term}</dt>
      <dd className="min-w-0 break-all">{children}</dd>
    </div>
  );
}

function Details({ detail }: { detail: NonNullable<LoupeError['detail']> }): ReactNode {
  return (
    <dl className="mt-2 space-y-1 text-xs">
      {detail.exitCode !== undefined && <Fact term="Exit code">{detail.exitCode === null ? 'none' : String(detail.exitCode)}</Fact>}
      {detail.signal !== undefined && <Fact term="Signal">{detail.signal ?? 'none'}</Fact>}
      {detail.url !== undefined && <Fact term="URL"><Text>{detail.url}</Text></Fact>}
      {detail.httpStatus !== undefined && <Fact term="HTTP status">{String(detail.httpStatus)}</Fact>}
      {detail.contentType !== undefined && <Fact term="Content type"><Text>{detail.contentType}</Text></Fact>}
      {detail.pathSearched !== undefined && (
        <Fact term="PATH searched">
          <ul className="font-mono">
            {detail.pathSearched.map((dir, i) => (
              <li key={i}><Text>{dir}</Text></li>
            ))}
          </ul>
        </Fact>
      )}
      {detail.tried !== undefined && (
        <div>
          <dt className="font-medium">Tried</dt>
          <dd>
            <ol className="mt-1 list-decimal space-y-0.5 pl-5" aria-label="Discovery steps">
              {detail.tried.map((step, i) => (
                <li key={i} className="break-all">
                  <Text>{step.what}</Text>: <span className="font-mono"><Text>{step.url}</Text></span> → <span className="font-semibold"><Text>{step.status}</Text></span>
                </li>
              ))}
            </ol>
          </dd>
        </div>
      )}
      {detail.bodyStart !== undefined && (
        <div>
          <dt className="font-medium">Body start</dt>
          <dd><Pre className="mt-1 max-h-40 overflow-auto rounded bg-red-100/60 p-2 dark:bg-red-900/30">{detail.bodyStart}</Pre></dd>
        </div>
      )}
      {detail.stderrTail !== undefined && (
        <div>
          <dt className="font-medium">Last stderr output</dt>
          <dd><Pre className="mt-1 max-h-48 overflow-auto rounded bg-red-100/60 p-2 dark:bg-red-900/30">{detail.stderrTail}</Pre></dd>
        </div>
      )}
    </dl>
  );
}

export function SessionError({ error }: { error: LoupeError }): ReactNode {
  return (
    <div className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900 dark:border-red-800 dark:bg-red-950/60 dark:text-red-100">
      <p className="font-semibold">
        <Text>{error.message}</Text> <span className="font-mono text-xs font-normal opacity-70">{error.code}</span>
      </p>
      {error.hint !== undefined && <p className="mt-1"><Text>{error.hint}</Text></p>}
      {error.detail !== undefined && <Details detail={error.detail} />}
    </div>
  );
}
