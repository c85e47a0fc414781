/**
 * The name/value facts at the top of a History row's detail (an HTTP exchange, an intervention,
 * a provider exchange): a definition list, facts without a value left out. Values are rendered as
 * text (they may come from a server). `mono` for URLs, ids and sizes.
 */
import { Text } from './text.tsx';

export type Fact = [name: string, value: string | undefined];

export function FactList({ facts, mono = true }: { facts: readonly Fact[]; mono?: boolean }) {
  return (
    <dl className="grid grid-cols-[minmax(6rem,auto)_1fr] gap-x-3 text-xs">
      {facts
        .filter(([, value]) => value !== undefined)
        .map(([name, value]) => (
          <div key={name} className="contents">
            <dt className="text-zinc-600 dark:text-zinc-300">{name}</dt>
            <dd className={mono ? 'break-all font-mono' : 'break-words'}>
              <Text>{value}</Text>
            </dd>
          </div>
        ))}
    </dl>
  );
}
