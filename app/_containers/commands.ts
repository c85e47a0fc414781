/**
 * What the palette's choices and the keyboard shortcuts do (issue 26), through the stores the tabs
 * themselves use (the nav store, a session's selected tool, its trace store's selection, the
 * layout store) and, where a tab owns the element, by finding it in the page by its role and
 * accessible name (the shown tool form's `Run tool`, the History's `Filter history`) and waiting
 * for it to be drawn before moving the focus there.
 */
import type { SavedCall } from '../../lib/workspace/workspace.ts';
import type { Collection } from '../../lib/collections/schema.ts';
import type { LoupeState } from '../_session/loupe-state.ts';
import { testsOf, type RunTarget } from '../_stores/tests-store.ts';
import { serverName } from './servers.tsx';
import { ALL_SERVERS, type LoupeServices } from '../_session/loupe-services.ts';
import type { SessionModel } from '../_session/model.ts';
import { runTool } from './tool-task.tsx';

const shown = (el: Element | null | undefined): el is HTMLElement => el instanceof HTMLElement && el.getClientRects().length > 0;

let focusTurn = 0;

/** Focus what `find` returns once it is drawn (a tab's panel mounts, a lazy form loads); the latest call wins. */
export function focusWhenReady(find: () => HTMLElement | null | undefined, timeoutMs = 4_000): void {
  const turn = ++focusTurn;
  const start = performance.now();
  const tick = () => {
    if (turn !== focusTurn) return;
    const el = find();
    if (el) {
      el.focus();
      return;
    }
    if (performance.now() - start < timeoutMs) requestAnimationFrame(tick);
    else focusMainTab();
  };
  requestAnimationFrame(tick);
}

/** The selected tab of the shown main tab list: where focus goes when what it was on is hidden. */
export function focusMainTab(): void {
  const tab = [...document.querySelectorAll('[role="tablist"] [role="tab"][aria-selected="true"]')].find(shown);
  tab?.focus();
}

/** After a choice: focus that was left on nothing visible goes to the shown tab. */
export function keepFocusVisible(): void {
  requestAnimationFrame(() => requestAnimationFrame(() => {
    const active = document.activeElement;
    if (!active || active === document.body || !shown(active)) focusMainTab();
  }));
}

/** The shown tool form's `Run tool` button. */
function runButton(): HTMLButtonElement | undefined {
  return [...document.querySelectorAll<HTMLButtonElement>('button[type="submit"]')].find((b) => shown(b) && b.textContent?.trim() === 'Run tool');
}

/** The first field of a tool form (before its buttons), else its Run tool button. */
function firstField(button: HTMLButtonElement): HTMLElement {
  const form = button.form;
  const fields = form ? [...form.querySelectorAll<HTMLElement>('input:not([type="hidden"]), textarea, select')] : [];
  const field = fields.find((f) => shown(f) && !(f as HTMLInputElement).disabled && f.compareDocumentPosition(button) & Node.DOCUMENT_POSITION_FOLLOWING);
  return field ?? button;
}

/** Submit the shown tool form as its Run tool button would (its checks first); false when there is none to run. */
export function runShownTool(services: LoupeServices): boolean {
  if (services.nav.getSnapshot() !== 'tools') return false;
  const button = runButton();
  if (!button?.form || button.disabled) return false;
  // Ctrl+Enter in another form (a dialog's, the connection's) is that form's.
  const active = document.activeElement;
  if (active instanceof HTMLElement && active.closest('form') && active.closest('form') !== button.form) return false;
  button.form.requestSubmit(button);
  return true;
}

/**
 * Run the newest call of the shown server again, with its arguments, and show it in the Tools tab.
 * `anywhere`: the palette's action; the shortcut acts in the Tools tab only (the raw composer's and
 * the Playground's Ctrl+Enter are theirs).
 */
export function rerunLastCall(services: LoupeServices, model: SessionModel | undefined, anywhere: boolean): boolean {
  const last = model?.call.getSnapshot().call;
  if (!model || !last || model.port.getSnapshot().info?.status !== 'connected') return false;
  if (!anywhere && services.nav.getSnapshot() !== 'tools') return false;
  const tools = model.tools.getSnapshot().items;
  const index = tools.findIndex((t) => t.name === last.tool);
  if (index >= 0) {
    model.selectedTool.set({ name: last.tool, index });
    runTool(model, tools[index], last.args);
  } else void model.call.run(last.tool, last.args);
  services.nav.show('tools');
  return true;
}

/** Select a tool in the Tools tab and move focus to its form's first field. */
export function openTool(services: LoupeServices, model: SessionModel, name: string, index: number): void {
  const before = model.selectedTool.getSnapshot();
  const same = before?.name === name && before.index === index && services.nav.getSnapshot() === 'tools';
  const oldForm = runButton()?.form;
  model.selectedTool.set({ name, index });
  services.nav.show('tools');
  focusWhenReady(() => {
    const button = runButton();
    // The form of the tool chosen, not the one it replaces (forms are keyed by tool: a new element).
    return button && (same || button.form !== oldForm) ? firstField(button) : undefined;
  });
}

/** The History tab with that frame selected and scrolled to, the table focused (arrows, j/k move on). */
export function openFrame(services: LoupeServices, model: SessionModel, seq: number): void {
  services.nav.show('history');
  model.trace.reveal(seq);
  focusWhenReady(() => [...document.querySelectorAll<HTMLElement>('[role="table"][aria-label="Frames"]')].find(shown));
}

/** Move the History's selection; `show`: bring the History forward first (the palette's action). */
export function moveFrame(services: LoupeServices, model: SessionModel | undefined, delta: number, show: boolean): boolean {
  if (!model || (!show && services.nav.getSnapshot() !== 'history')) return false;
  services.nav.show('history');
  model.trace.move(delta);
  return true;
}

export function focusHistoryFilter(services: LoupeServices, model: SessionModel | undefined): boolean {
  if (!model) return false;
  services.nav.show('history');
  focusWhenReady(() => {
    const named = [...document.querySelectorAll<HTMLElement>('input[aria-label="Filter history"]')].find(shown);
    return named ?? [...document.querySelectorAll<HTMLElement>('section[aria-label="History"] input')].find(shown);
  });
  return true;
}

/** The next (or previous) server of the workspace, in the Servers panel's order, around the end. */
export function switchServer(services: LoupeServices, current: string | undefined, delta: number): boolean {
  const state = services.app.getSnapshot();
  const ids = state.order.filter((id) => state.sessions[id]);
  if (ids.length < 2 && current !== ALL_SERVERS) return false;
  if (ids.length === 0) return false;
  const at = current === undefined ? -1 : ids.indexOf(current);
  const next = at < 0 ? (delta > 0 ? 0 : ids.length - 1) : (at + delta + ids.length) % ids.length;
  services.selected.set(ids[next]);
  return true;
}

export function openResource(services: LoupeServices, model: SessionModel, uri: string): void {
  services.nav.show('resources');
  void model.resourceView.read(uri, 'list');
}

export function openPrompt(services: LoupeServices, model: SessionModel, name: string, index: number): void {
  services.nav.show('prompts');
  model.promptView.select(name, index);
}

/**
 * A saved call is opened where it lives: the Saved calls tab, focus on its `Run` (Enter runs it;
 * choosing it in the palette does not run a call that may change things without a second key).
 */
export function openSavedCall(services: LoupeServices, call: SavedCall): void {
  services.nav.show('saved-calls');
  focusWhenReady(() => [...document.querySelectorAll<HTMLElement>('button[aria-label]')].find((b) => shown(b) && b.getAttribute('aria-label') === `Run saved call ${call.name}`));
}

/** Show a main tab and put focus on it. */
export function showTab(services: LoupeServices, tab: string): void {
  services.nav.show(tab);
  focusWhenReady(() => [...document.querySelectorAll<HTMLElement>('[role="tablist"] [role="tab"][aria-selected="true"]')].find(shown));
}

/** The session of the server named `name`, if the workspace has one. */
export function sessionNamed(state: LoupeState, name: string): string | undefined {
  return state.order.find((id) => state.sessions[id] !== undefined && serverName(state.sessions[id]) === name);
}

/** Where a collection runs (issue 27): its server's session, else the one the tab shows. */
export function targetOf(services: LoupeServices, shown: string, collection: Collection): RunTarget {
  const state = services.app.getSnapshot();
  const id = collection.server === undefined ? shown : sessionNamed(state, collection.server);
  const info = id === undefined ? undefined : state.sessions[id];
  if (id === undefined || !info) return { ok: false, error: `This collection runs on the server ${collection.server ?? '(none)'}, which this workspace does not have: choose one under Runs on.` };
  return { ok: true, model: services.sessions.get(id), server: serverName(info) };
}

/** Run the workspace's collections (or the one named) and show the Tests tab with their results. */
export function runTests(services: LoupeServices, model: SessionModel, name?: string): boolean {
  const collections = services.app.getSnapshot().workspace?.collections ?? [];
  const chosen = name === undefined ? collections : collections.filter((c) => c.name === name);
  const store = testsOf(services.app);
  const state = store.getSnapshot();
  if (chosen.length === 0 || state.runningAll || Object.values(state.runs).some((r) => r.running)) return false;
  showTab(services, 'tests');
  const target = (c: Collection) => targetOf(services, model.id, c);
  if (name === undefined) void store.runAll(chosen, target);
  else void store.run(chosen[0], target(chosen[0]));
  return true;
}
