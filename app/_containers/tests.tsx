'use client';
/**
 * The `Tests` tab (issue 27): the workspace's collections (the proxy's: `set-collections`, then
 * broadcast as `workspace`, so the file keeps them and every tab sees them), run by this tab with
 * lib/collections/run.ts over the session's port (tests-store.ts), each result's frames one click
 * from the History. `Open recording` turns a `--record` file into a collection.
 */
import { useMemo, useState, type ReactNode } from 'react';
import { TestsPanel, type RecordingNote } from '@/components/tests/panel.tsx';
import type { CollectionProps } from '@/components/tests/collection.tsx';
import { collectionFromRecording } from '../../lib/collections/from-recording.ts';
import type { Collection } from '../../lib/collections/schema.ts';
import type { CallVerdict } from '../../lib/collections/types.ts';
import type { LoupeServices } from '../_session/loupe-services.ts';
import { addCall, addCollection, appendCollection, deleteCall, deleteCollection, replaceCall, replaceCollection, type Edit } from '../_stores/collection-edits.ts';
import { uniqueName } from '../../lib/collections/propose.ts';
import { testsOf, type CollectionRun } from '../_stores/tests-store.ts';
import { openFrame, targetOf } from './commands.ts';
import { serverName } from './servers.tsx';
import { useLoupeSelector, useServices, useSession, useSessionInfo } from '../_hooks/use-loupe.ts';
import { useStore } from '../_hooks/use-store.ts';
import { useSentAheadUntilShown } from '@/components/ui/use-sent-ahead.ts';

const NONE: readonly Collection[] = [];
/** How long `Show in History` waits for a newly shown server's trace. */
const RESET_WAIT_MS = 10_000;

/**
 * The workspace's collections, and a way to replace them all (why not, when the socket is down).
 * The proxy holds them and shows a change a moment after it is sent: `current()` is what was just
 * sent until then, so that an edit, or a run, that follows at once (choose `Runs on`, then `Run
 * all collections`) builds on it instead of on the list still shown. The proxy reads the list
 * again before it shows it, so what was sent is forgotten when it next shows the workspace.
 */
export function useCollections(): { collections: readonly Collection[]; current(): readonly Collection[]; set(next: Collection[]): string | undefined; apply(edit: Edit): string | undefined } {
  const { app } = useServices();
  const shown = useLoupeSelector((s) => s.workspace?.collections) ?? NONE;
  const ahead = useSentAheadUntilShown<readonly Collection[]>(shown, (next) => app.send({ type: 'set-collections', collections: [...next] }));
  const set = (next: Collection[]) => (ahead.send(next) ? undefined : 'Not connected to Loupe; nothing was changed');
  // What is drawn is the proxy's (once it is shown, it is kept); what the next change builds on, `current()`.
  return { collections: shown, current: ahead.base, set, apply: (edit) => (edit.ok ? set(edit.collections) : edit.error) };
}

/** A result's `Show in History`: that server shown, its History on the call's request frame. */
function showFrame(services: LoupeServices, call: CallVerdict): void {
  const frames = call.outcome?.frames;
  const seq = frames?.request ?? frames?.response;
  if (!frames?.session || seq === undefined) return;
  const model = services.sessions.get(frames.session);
  if (services.selected.getSnapshot() !== frames.session) {
    services.selected.set(frames.session);
    // A server the tab did not show sends its whole trace again (trace-reset), which clears the
    // History's selection: the frame is revealed once more when it has come.
    const off = model.port.onReset(() => {
      stop();
      openFrame(services, model, seq);
    });
    const timer = setTimeout(() => off(), RESET_WAIT_MS);
    const stop = () => {
      clearTimeout(timer);
      off();
    };
  }
  openFrame(services, model, seq);
}

function runView(run: CollectionRun | undefined): CollectionProps['run'] {
  if (!run) return undefined;
  // `Run call NAME` shows that call; the rest of the collection was not asked for.
  const calls = run.only ? run.calls.filter((c) => run.only!.includes(c.call)) : run.calls;
  return { server: run.server, running: run.running, calls, counts: run.only ? undefined : run.verdict?.counts, durationMs: run.verdict?.durationMs, error: run.error };
}

function useServerNames(): readonly string[] {
  const order = useLoupeSelector((s) => s.order);
  const sessions = useLoupeSelector((s) => s.sessions);
  return useMemo(() => order.flatMap((id) => (sessions[id] ? [serverName(sessions[id])] : [])), [order, sessions]);
}

/** `Open recording`: the file's collection added under a name of its own, and what it said. */
function useRecording(current: () => readonly Collection[], apply: (edit: Edit) => string | undefined, server: string | undefined) {
  const [note, setNote] = useState<RecordingNote>();
  const open = async (file: File) => {
    const collections = current();
    const name = uniqueName(file.name.replace(/\.(jsonl|ndjson|txt)$/i, ''), collections.map((c) => c.name));
    const made = collectionFromRecording(await file.text(), name);
    if (!made.ok) return setNote({ file: file.name, error: made.error, notes: [] });
    const collection = { ...made.collection, ...(made.collection.server === undefined && server !== undefined ? { server } : {}) };
    const why = apply(appendCollection(collections, collection));
    setNote(why ? { file: file.name, error: why, notes: [] } : { file: file.name, collection: collection.name, notes: made.notes });
  };
  return { note, open: (file: File) => void open(file) };
}

export function TestsContainer(): ReactNode {
  const services = useServices();
  const model = useSession();
  const info = useSessionInfo();
  const store = testsOf(services.app);
  const state = useStore(store);
  const synced = useLoupeSelector((s) => s.synced);
  const servers = useServerNames();
  const { collections, current, set, apply } = useCollections();
  const shownServer = info ? serverName(info) : 'this server';
  // In a workspace of several servers a new collection runs where it was made.
  const home = servers.length > 1 && info ? serverName(info) : undefined;
  const recording = useRecording(current, apply, home);
  const target = (c: Collection) => targetOf(services, model.id, c);
  const busy = state.runningAll || Object.values(state.runs).some((r) => r.running);
  const views = collections.map((collection): Omit<CollectionProps, 'servers' | 'shownServer' | 'canRun' | 'busy'> => ({
    collection,
    run: runView(state.runs[collection.name]),
    onRun: (only) => void store.run(current().find((c) => c.name === collection.name) ?? collection, target(collection), only === undefined ? undefined : [only]),
    onReplace: (next) => {
      const why = apply(replaceCollection(current(), collection.name, next));
      if (!why) store.rename(collection.name, next.name.trim());
      return why;
    },
    onDelete: () => {
      if (!set(deleteCollection(current(), collection.name))) store.forget(collection.name);
    },
    onSaveCall: (from, next) => apply(from === undefined ? addCall(current(), collection.name, next) : replaceCall(current(), collection.name, from, next)),
    onDeleteCall: (name) => void set(deleteCall(current(), collection.name, name)),
    onShowFrame: (call) => showFrame(services, call),
  }));
  return (
    <TestsPanel
      collections={views}
      servers={servers}
      shownServer={shownServer}
      canRun={synced}
      busy={busy}
      runningAll={state.runningAll}
      recording={recording.note}
      onCreate={(name) => apply(addCollection(current(), name, home))}
      onRunAll={() => void store.runAll(current(), target)}
      onStop={() => store.stop()}
      onOpenRecording={recording.open}
    />
  );
}
