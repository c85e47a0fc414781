/**
 * The doctor's view of a connected session (issue 14): every list fetched afresh, every page
 * followed (the cursors kept, so that a loop can be named), each failure kept as the server said
 * it, and each MCP Apps view a tool links read as a host would; then the rules of
 * lib/doctor/doctor.ts, with the spec findings the session's trace already carries.
 * The same for the Doctor tab (hub-doctor.ts) and `mcp-loupe --doctor`.
 */
import { fetchAllPages } from '../../lib/client/paged-list.ts';
import { runDoctor } from '../../lib/doctor/doctor.ts';
import { specFindingsOf } from '../../lib/doctor/spec.ts';
import { viewFrameFindings } from '../../lib/doctor/apps.ts';
import { specValidationSettled } from '../pipeline/spec-validator.ts';
import { toolPins } from '../../lib/doctor/poison.ts';
import { listChangedFindings } from '../../lib/doctor/list-changed.ts';
import { viewUriOf } from '../../lib/apps/meta.ts';
import type { DoctorInput, DoctorReport, ListFetch, ViewFetch } from '../../lib/model/doctor.ts';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { MODERN_VERSION } from '../session/modern-envelope.ts';
import type { Session } from '../session/session.ts';
import type { WorkspaceModel } from './workspace-model.ts';

const LISTS = [
  { key: 'tools', method: 'tools/list', items: 'tools', capability: 'tools' },
  { key: 'resources', method: 'resources/list', items: 'resources', capability: 'resources' },
  { key: 'resourceTemplates', method: 'resources/templates/list', items: 'resourceTemplates', capability: 'resources' },
  { key: 'prompts', method: 'prompts/list', items: 'prompts', capability: 'prompts' },
] as const;

let nextCall = 1;

/** How long a view has to send `ui/initialize` before the doctor says it never did. */
const VIEW_LOAD_MS = 10_000;

/** A failed request as the doctor keeps it: the code as sent (a JSON-RPC number or Loupe's string), the message. */
const failureOf = (error: { code?: unknown; message: string }): NonNullable<ListFetch['error']> => ({
  code: typeof error.code === 'number' || typeof error.code === 'string' ? error.code : undefined,
  message: error.message,
});

/** Lists one kind of thing, every page; the cursors in the order sent (also `--export-tools`'s listing). */
export async function fetchList(session: Session, method: string, itemsKey: string, timeoutMs: number): Promise<ListFetch> {
  const cursors: string[] = [];
  let failure: ListFetch['error'];
  const paged = await fetchAllPages(async (cursor) => {
    if (cursor !== undefined) cursors.push(cursor);
    const outcome = await session.request(`doctor-${nextCall++}`, method, cursor === undefined ? undefined : { cursor }, { timeoutMs });
    if (!outcome.ok) failure = failureOf(outcome.error);
    return outcome;
  }, itemsKey);
  const fetched: ListFetch = { items: paged.items, cursors };
  if (failure) fetched.error = failure;
  else if (paged.error) fetched.error = { message: paged.error };
  if (paged.note) fetched.stopped = paged.note;
  return fetched;
}

/** Views read per run: a server that links a view per tool must not make the doctor read without end. */
const MAX_VIEWS = 100;

/**
 * MCP Apps (issue 24): each distinct `ui://` view the tools link, read once as a host reads it
 * (`resources/read`), or how the read failed. Undefined when no tool links a view.
 */
async function fetchViews(session: Session, tools: readonly unknown[], timeoutMs: number): Promise<Record<string, ViewFetch> | undefined> {
  const uris = [...new Set(tools.map(viewUriOf).flatMap((link) => (link?.ok ? [link.uri] : [])))].slice(0, MAX_VIEWS);
  if (uris.length === 0) return undefined;
  const views: Record<string, ViewFetch> = {};
  for (const uri of uris) {
    const outcome = await session.request(`doctor-${nextCall++}`, 'resources/read', { uri }, { timeoutMs });
    views[uri] = outcome.ok ? { result: outcome.result } : { error: failureOf(outcome.error) };
  }
  return views;
}

/**
 * Every list, whether or not the server declared it (a list served without being declared is a
 * finding too); `pins` are the tool hashes the workspace kept from the last time.
 */
export async function doctorInput(session: Session, options: { timeoutMs?: number; pins?: Record<string, string> } = {}): Promise<DoctorInput> {
  const info = session.snapshot();
  const lists: DoctorInput['lists'] = {};
  for (const list of LISTS) lists[list.key] = await fetchList(session, list.method, list.items, options.timeoutMs ?? 30_000);
  const views = await fetchViews(session, lists.tools?.items ?? [], options.timeoutMs ?? 30_000);
  return {
    server: { name: info.serverInfo?.name ?? info.name, title: info.serverInfo?.title, version: info.serverInfo?.version },
    protocolVersion: info.protocolVersion,
    // What Loupe asks for: the 1.x SDK's latest in initialize, or the 2026 envelope's version.
    requested: info.era === 'modern' ? MODERN_VERSION : LATEST_PROTOCOL_VERSION,
    era: info.era,
    capabilities: info.capabilities,
    lists,
    ...(options.pins ? { pins: options.pins } : {}),
    ...(views ? { views } : {}),
  };
}

/** The report, and the tool hashes of this run (for the next one's hash pinning). */
export async function examine(session: Session, options: { timeoutMs?: number; pins?: Record<string, string> } = {}): Promise<{ report: DoctorReport; pins: Record<string, string> }> {
  const input = await doctorInput(session, options);
  // The frames of the lists just fetched are checked off the hot path: wait for their verdicts.
  await specValidationSettled(session.trace);
  const events = session.trace.all();
  // From the trace: the frames that broke their schema, and a list that changed between the page's
  // fetch and the doctor's own without the list_changed the server declares.
  // MCP Apps (issue 24): how each view went through its handshake; a view given its HTML in the
  // last few seconds may still be loading, so its frames wait for the next run.
  const settled = events.filter((e) => e.kind !== 'frame' || e.view === undefined || e.ts < Date.now() - VIEW_LOAD_MS);
  const observed = [...specFindingsOf(events), ...listChangedFindings(events, input.capabilities), ...viewFrameFindings(settled)];
  return { report: runDoctor(input, observed), pins: toolPins(input.lists.tools?.items ?? []) };
}

/**
 * Hash pinning, for every face (issue 22): the report compared with the tools as the workspace
 * entry `id` last kept them, and this run's tools kept in their place (saved with the workspace).
 */
export async function examinePinned(session: Session, model: WorkspaceModel, options: { timeoutMs?: number } = {}): Promise<DoctorReport> {
  const { report, pins } = await examine(session, { ...options, pins: model.entry(session.id)?.toolPins });
  model.setToolPins(session.id, pins);
  return report;
}
