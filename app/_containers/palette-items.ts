/**
 * The command palette's items (issue 26), made from the services when the palette is open: the
 * actions (with their shortcut from lib/keyboard/shortcuts.ts), the main tabs, the servers, and the
 * shown server's tools, resources, prompts, saved calls and last frames, each with what choosing
 * it does (commands.ts).
 */
import type { PaletteItem } from '@/components/shell/palette.tsx';
import { keysOf, type ShortcutId, shortcut } from '../../lib/keyboard/shortcuts.ts';
import type { HistoryRow } from '../../lib/trace/trace.ts';
import type { SavedCall } from '../../lib/workspace/workspace.ts';
import { ALL_SERVERS, type LoupeServices } from '../_session/loupe-services.ts';
import type { SessionModel } from '../_session/model.ts';
import { focusHistoryFilter, moveFrame, openFrame, openPrompt, openResource, openSavedCall, openTool, rerunLastCall, runShownTool, runTests, showTab, switchServer } from './commands.ts';
import { serverName } from './servers.tsx';

export interface PaletteEntry {
  item: PaletteItem;
  run(): void;
}

/** What the workbench itself does: open the palette on servers only, the shortcuts panel. */
export interface WorkbenchActions {
  switchServer(): void;
  showShortcuts(): void;
}

/** The main tabs as loupe-app.tsx lists them (OAuth only for a remote server). */
const TABS: ReadonlyArray<[string, string]> = [
  ['tools', 'Tools'], ['resources', 'Resources'], ['prompts', 'Prompts'], ['history', 'History'], ['notifications', 'Notifications'], ['tasks', 'Tasks'],
  ['doctor', 'Doctor'], ['saved-calls', 'Saved calls'], ['tests', 'Tests'], ['intercept', 'Intercept'], ['playground', 'Playground'], ['oauth', 'OAuth'],
];

/** Frames offered: the shown session's last ones. */
export const RECENT_FRAMES = 50;

export interface EntryInput {
  services: LoupeServices;
  /** The server shown (a session id or ALL_SERVERS). */
  shown: string | undefined;
  model: SessionModel | undefined;
  mac: boolean;
  workbench: WorkbenchActions;
}

function actions({ services, shown, model, mac, workbench }: EntryInput): PaletteEntry[] {
  const act: Act = (key, label, run, id, detail) => ({
    item: { key: `action:${key}`, kind: 'action', label, detail, keys: id ? keysOf(shortcut(id), mac) : undefined },
    run,
  });
  const dark = services.theme.getSnapshot() === 'dark';
  return [
    ...(model
      ? [
          act('run', 'Run tool', () => runShownTool(services), 'run', 'the tool shown in the Tools tab'),
          act('rerun', 'Re-run last call', () => rerunLastCall(services, model, true), 'rerun'),
          act('next-frame', 'Next frame', () => moveFrame(services, model, 1, true), 'next-frame', 'History'),
          act('previous-frame', 'Previous frame', () => moveFrame(services, model, -1, true), 'previous-frame', 'History'),
          act('focus-filter', 'Focus History filter', () => focusHistoryFilter(services, model), 'focus-filter'),
        ]
      : []),
    ...(model ? tests(services, model, act) : []),
    act('switch-server', 'Switch server…', () => workbench.switchServer()),
    act('next-server', 'Next server', () => switchServer(services, shown, 1), 'next-server'),
    act('previous-server', 'Previous server', () => switchServer(services, shown, -1), 'previous-server'),
    act('toggle-sidebar', 'Toggle side column', () => services.layout.toggleSidebar(), 'toggle-sidebar'),
    act('shortcuts', 'Show keyboard shortcuts', () => workbench.showShortcuts(), 'help'),
    act('theme', dark ? 'Light theme' : 'Dark theme', () => services.theme.toggle(), undefined, 'toggle theme'),
  ];
}

type Act = (key: string, label: string, run: () => void, id?: ShortcutId, detail?: string) => PaletteEntry;

/** The Tests tab's runs (issue 27): all collections, or one. */
function tests(services: LoupeServices, model: SessionModel, act: Act): PaletteEntry[] {
  const collections = services.app.getSnapshot().workspace?.collections ?? [];
  if (collections.length === 0) return [];
  return [
    act('run-tests', 'Run all collections', () => runTests(services, model), undefined, 'Tests'),
    ...collections.map((c) => act(`run-collection:${c.name}`, `Run collection ${c.name}`, () => runTests(services, model, c.name), undefined, `Tests · ${c.calls.length} ${c.calls.length === 1 ? 'call' : 'calls'}`)),
  ];
}

function tabs({ services, model }: EntryInput): PaletteEntry[] {
  if (!model) return [];
  const remote = model.port.getSnapshot().info?.config.kind === 'http';
  return TABS.filter(([id]) => id !== 'oauth' || remote).map(([id, label]) => ({ item: { key: `tab:${id}`, kind: 'tab', label: `Go to ${label}` }, run: () => showTab(services, id) }));
}

function servers({ services }: EntryInput): PaletteEntry[] {
  const state = services.app.getSnapshot();
  const entries: PaletteEntry[] = state.order.flatMap((id) => {
    const session = state.sessions[id];
    if (!session) return [];
    const name = serverName(session);
    return [{ item: { key: `server:${name}`, kind: 'server', label: name, detail: session.status }, run: () => services.selected.set(id) }];
  });
  if (entries.length > 1) entries.push({ item: { key: 'server:*', kind: 'server', label: 'All servers' }, run: () => services.selected.set(ALL_SERVERS) });
  return entries;
}

function frameLabel(row: HistoryRow): string {
  const arrow = row.dir === 'out' ? '→' : row.dir === 'in' ? '←' : '·';
  return `#${row.seq} ${arrow} ${row.method ?? row.summary ?? row.kind}`;
}

function catalog({ services, model }: EntryInput, saved: readonly SavedCall[]): PaletteEntry[] {
  if (!model) return [];
  const out: PaletteEntry[] = [];
  model.tools.getSnapshot().items.forEach((tool, index) => {
    out.push({ item: { key: `tool:${tool.name}#${index}`, kind: 'tool', label: tool.name, detail: tool.title ?? tool.description?.split('\n')[0] }, run: () => openTool(services, model, tool.name, index) });
  });
  for (const resource of model.resources.getSnapshot().items) {
    out.push({ item: { key: `resource:${resource.uri}`, kind: 'resource', label: resource.title ?? resource.name ?? resource.uri, detail: resource.uri }, run: () => openResource(services, model, resource.uri) });
  }
  model.prompts.getSnapshot().items.forEach((prompt, index) => {
    out.push({ item: { key: `prompt:${prompt.name}#${index}`, kind: 'prompt', label: prompt.name, detail: prompt.title ?? prompt.description?.split('\n')[0] }, run: () => openPrompt(services, model, prompt.name, index) });
  });
  for (const call of saved) {
    out.push({ item: { key: `saved:${call.name}`, kind: 'saved-call', label: call.name, detail: `${call.kind} ${call.target}` }, run: () => openSavedCall(services, call) });
  }
  const rows = model.trace.getSnapshot().index.rows;
  for (let i = rows.length - 1; i >= Math.max(0, rows.length - RECENT_FRAMES); i -= 1) {
    const row = rows[i];
    out.push({ item: { key: `frame:${model.id}:${row.seq}`, kind: 'frame', label: frameLabel(row), detail: row.kind }, run: () => openFrame(services, model, row.seq) });
  }
  return out;
}

export function paletteEntries(input: EntryInput): PaletteEntry[] {
  const saved = input.model ? (input.services.app.getSnapshot().workspace?.savedCalls[input.model.id] ?? []) : [];
  return [...actions(input), ...tabs(input), ...servers(input), ...catalog(input, saved)];
}
