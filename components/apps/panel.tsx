/**
 * A tool call's MCP Apps view (issue 24), under its result: the region `View: <tool>` with the
 * view's status in words, the sandbox frame (inline, fullscreen over the whole window with
 * `Exit fullscreen`, or a small floating box), and beside it the host controls, `Replay to view`,
 * `Tear down` / `Mount again`, and the lists of what the view asked.
 *
 * The frame stays at one place in the tree whatever the display mode (only its box's classes
 * change): moving an iframe in the DOM reloads it, and the view would start again.
 */
import { useEffect, type CSSProperties, type ReactNode } from 'react';
import type { DownloadedFile } from '../../lib/apps/download.ts';
import type { AppViewState, DisplayMode, HostContextPatch, ViewAsk } from '../../lib/wire/wire.ts';
import { Text } from '../ui/text.tsx';
import { buttonClass, Note } from '../ui/ui.tsx';
import { ViewFrame } from './frame.tsx';
import { HostControls, MODE_WORDS } from './host-controls.tsx';
import { AskList, CspSummary, ModelContext } from './lists.tsx';
import { Replay } from './replay.tsx';

export interface ViewPanelProps {
  tool: string;
  /** An `app-open` is in flight. */
  opening: boolean;
  state?: AppViewState;
  /** Why there is no view, in words. */
  error?: string;
  /** The proxy refused the last thing asked of the view. */
  problem?: string;
  /** The call's arguments and result (`Replay to view` starts from them); `callId` tells one call's from another's. */
  input: unknown;
  result: unknown;
  callId: string;
  onMessage(view: string, text: string): void;
  attach(view: string, post: (text: string) => void): () => void;
  onContext(patch: HostContextPatch): void;
  onReplay(input: Record<string, unknown> | undefined, result: unknown): void;
  /** The user's answer to an ask that waits for one (a `ui/message`). */
  onAnswer(ask: string, approve: boolean): void;
  /** Why this ask cannot be approved now, in words (the Playground's conversation is busy…); undefined when it can. */
  cannotApprove?(ask: ViewAsk): string | undefined;
  /** Approved downloads' files, by ask id, and how one is saved. */
  downloads?: Readonly<Record<string, readonly DownloadedFile[]>>;
  onSave?(file: DownloadedFile): void;
  onTearDown(): void;
  onMountAgain(): void;
}

/** The height of an inline view with no size of its own yet, and the bounds of the size it asks for. */
const DEFAULT_HEIGHT = 320;
const MIN_HEIGHT = 80;
const MAX_HEIGHT = 720;

const STATUS_WORDS: Record<AppViewState['status'], string> = {
  loading: 'Loading: the sandbox is starting.',
  'sandbox-ready': 'Sandbox ready: waiting for the view to initialize.',
  initialized: 'Initialized.',
  closed: 'Closed.',
  failed: 'The view failed.',
};

function statusText(opening: boolean, state: AppViewState | undefined, error: string | undefined): string {
  if (opening) return 'Loading: Loupe is reading the view.';
  if (!state) return error !== undefined ? 'Not shown.' : 'No view yet.';
  return STATUS_WORDS[state.status] + (state.status === 'failed' && state.error ? ` ${state.error}` : '');
}

function dimension(context: Readonly<Record<string, unknown>>, key: 'width' | 'height'): number | undefined {
  const dims = context.containerDimensions;
  const value = dims !== null && typeof dims === 'object' ? (dims as Record<string, unknown>)[key] : undefined;
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** The frame's size inline: the container size the user set, else the height the view asked for, bounded. */
function inlineStyle(state: AppViewState): CSSProperties {
  const width = dimension(state.hostContext, 'width');
  const height = dimension(state.hostContext, 'height') ?? Math.min(MAX_HEIGHT, Math.max(MIN_HEIGHT, state.size?.height ?? DEFAULT_HEIGHT));
  // A width the user set is kept exactly (the box scrolls): the view was told that width.
  return { width: width ?? '100%', height };
}

const BOX: Record<DisplayMode, string> = {
  inline: 'relative overflow-x-auto',
  fullscreen: 'fixed inset-0 z-50 flex flex-col bg-white dark:bg-zinc-950',
  pip: 'fixed bottom-4 right-4 z-40 flex h-72 w-96 flex-col overflow-hidden rounded-lg border border-zinc-300 bg-white shadow-xl dark:border-zinc-600 dark:bg-zinc-900',
};

/** Escape leaves fullscreen (keys typed inside the view stay with the view). */
function useEscape(active: boolean, onEscape: () => void): void {
  useEffect(() => {
    if (!active) return;
    const down = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onEscape();
    };
    document.addEventListener('keydown', down);
    return () => document.removeEventListener('keydown', down);
  }, [active, onEscape]);
}

function FrameBox({ tool, state, onMessage, attach, onContext }: Pick<ViewPanelProps, 'tool' | 'onMessage' | 'attach' | 'onContext'> & { state: AppViewState }): ReactNode {
  const mode = state.displayMode;
  const inline = () => onContext({ displayMode: 'inline' });
  useEscape(mode === 'fullscreen', inline);
  const border = state.prefersBorder === false ? '' : 'rounded-md border border-zinc-200 dark:border-zinc-700';
  return (
    <div className={BOX[mode]}>
      {mode !== 'inline' && (
        <div className="flex items-center justify-between gap-2 border-b border-zinc-200 px-2 py-1 text-sm dark:border-zinc-700">
          <span className="min-w-0 truncate">
            {MODE_WORDS[mode]}: <Text className="font-mono">{tool}</Text>
          </span>
          <button type="button" className={buttonClass} onClick={inline}>
            {mode === 'fullscreen' ? 'Exit fullscreen' : 'Back to inline'}
          </button>
        </div>
      )}
      <ViewFrame
        key={state.view}
        view={state.view}
        tool={tool}
        sandboxUrl={state.sandboxUrl}
        sandboxOrigin={state.sandboxOrigin}
        allow={state.allow}
        onMessage={(text) => onMessage(state.view, text)}
        attach={(post) => attach(state.view, post)}
        style={mode === 'inline' ? inlineStyle(state) : undefined}
        className={mode === 'inline' ? border : 'min-h-0 w-full flex-1'}
      />
    </div>
  );
}

function Actions({ state, opening, onTearDown, onMountAgain }: Pick<ViewPanelProps, 'state' | 'opening' | 'onTearDown' | 'onMountAgain'>): ReactNode {
  const open = state !== undefined && state.status !== 'closed';
  return (
    <div className="flex flex-wrap gap-2">
      <button type="button" className={buttonClass} disabled={!open} onClick={onTearDown}>
        Tear down
      </button>
      <button type="button" className={buttonClass} disabled={opening} onClick={onMountAgain}>
        Mount again
      </button>
    </div>
  );
}

function Beside({ state, input, result, callId, onContext, onReplay, onAnswer, cannotApprove, downloads, onSave }: Pick<ViewPanelProps, 'input' | 'result' | 'callId' | 'onContext' | 'onReplay' | 'onAnswer' | 'cannotApprove' | 'downloads' | 'onSave'> & { state: AppViewState }): ReactNode {
  const closed = state.status === 'closed';
  const cannotReplay = state.status === 'initialized' ? undefined : 'The view takes these once it has initialized.';
  return (
    <div className="grid gap-3 xl:grid-cols-2">
      <div className="min-w-0 space-y-3">
        <HostControls context={state.hostContext} displayMode={state.displayMode} viewModes={state.viewDisplayModes} disabledReason={closed ? 'The view is closed.' : undefined} onChange={onContext} />
        <Replay key={callId} input={input} result={result} cannotSendReason={cannotReplay} onSend={onReplay} />
      </div>
      <div className="min-w-0 space-y-3">
        <AskList asks={state.asks} onAnswer={closed ? undefined : onAnswer} cannotApprove={cannotApprove} downloads={downloads} onSave={onSave} />
        <ModelContext value={state.modelContext} />
        <CspSummary csp={state.csp} problems={state.cspProblems} allow={state.allow} />
      </div>
    </div>
  );
}

export function ViewPanel(props: ViewPanelProps): ReactNode {
  const { tool, opening, state, error, problem } = props;
  return (
    <section aria-label={`View: ${tool}`} className="space-y-3 rounded-lg border border-zinc-200 bg-white p-3 shadow-sm dark:border-zinc-700 dark:bg-zinc-900">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-sm font-semibold">
          View: <Text className="font-mono">{tool}</Text>
          {state && <span className="ml-2 font-mono text-xs font-normal text-zinc-500 dark:text-zinc-400"><Text>{state.uri}</Text></span>}
        </h2>
        <Actions state={state} opening={opening} onTearDown={props.onTearDown} onMountAgain={props.onMountAgain} />
      </div>
      <p role="status" aria-label="View status" className="text-sm text-zinc-700 dark:text-zinc-200">
        {statusText(opening, state, error)}
      </p>
      {error !== undefined && (
        <p role="alert" className="rounded-md border border-red-300 bg-red-50 p-2 text-sm text-red-900 dark:border-red-800 dark:bg-red-950/60 dark:text-red-100">
          The view could not be shown: <Text>{error}</Text>
        </p>
      )}
      {problem !== undefined && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          Loupe refused: <Text>{problem}</Text>
        </p>
      )}
      {state && state.status !== 'closed' && <FrameBox tool={tool} state={state} onMessage={props.onMessage} attach={props.attach} onContext={props.onContext} />}
      {state?.status === 'closed' && <Note>The view was torn down. Mount again shows it anew.</Note>}
      {state && <Beside state={state} input={props.input} result={props.result} callId={props.callId} onContext={props.onContext} onReplay={props.onReplay} onAnswer={props.onAnswer} cannotApprove={props.cannotApprove} downloads={props.downloads} onSave={props.onSave} />}
    </section>
  );
}
