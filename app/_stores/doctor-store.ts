/**
 * The Doctor tab's store (issue 14): the last report of every session, the run in flight, and the
 * tab's choices (which severities are shown, the export format). The proxy does the examining
 * (`run-doctor` → `doctor-report`, lib/wire/doctor.ts), fetching every list afresh and running the
 * same rules as `mcp-loupe --doctor`; this store only keeps the answer. It lives at the tab level,
 * not in the session model, so that a report outlives leaving the Doctor tab, and because the
 * answer arrives as its own envelope, not as a response to an MCP request.
 */
import type { DoctorReport, Severity } from '../../lib/model/doctor.ts';
import type { ExportFormat } from '../../lib/doctor/export-tools.ts';
import type { ServerMessage } from '../../lib/wire/wire.ts';
import type { MessageHost } from '../_wire/message-host.ts';
import { newRequestId } from '../_wire/request-outcome.ts';
import { HostStore } from './host-store.ts';

export type SeverityFilter = Readonly<Record<Severity, boolean>>;

/** Why the doctor has no (new) report: one sentence, and what to try when the proxy said. */
export interface DoctorProblem {
  message: string;
  hint?: string;
}

export interface DoctorRun {
  /** The requestId of the run in flight. */
  pending?: string;
  /** The latest report (kept while a new run is in flight or after one failed). */
  report?: DoctorReport;
  /** When the report arrived (ms since the epoch). */
  at?: number;
  /** Why the latest run gave no report. */
  problem?: DoctorProblem;
}

export interface DoctorViewState {
  /** By session id. */
  runs: Readonly<Record<string, DoctorRun>>;
  filter: SeverityFilter;
  format: ExportFormat;
  /** The report by rule (what to act on first, issue 26) or by thing (each tool, prompt…). */
  groupBy: DoctorGrouping;
}

export type DoctorGrouping = 'rule' | 'thing';

/** What the store needs of the tab store (loupe-store.ts). */
export type DoctorHost = MessageHost;

/**
 * The proxy fetches every list (each with its own request timeout) before it answers; a run that
 * stays unanswered far beyond that is given up, so that `Run doctor` never stays disabled for good.
 */
export const DOCTOR_GIVE_UP_MS = 180_000;

const NOT_SENT: DoctorProblem = { message: 'Not connected to Loupe, so the doctor did not run.', hint: 'Run it again once the page reconnects.' };
const DROPPED: DoctorProblem = { message: 'The connection to Loupe dropped before the report arrived.', hint: 'Run doctor again.' };
const GAVE_UP: DoctorProblem = { message: `No report arrived within ${DOCTOR_GIVE_UP_MS / 60_000} minutes, so Loupe stopped waiting.`, hint: 'Run doctor again; if it keeps happening, the server may be stuck answering a list request.' };
const NO_REPORT: DoctorProblem = { message: 'Loupe answered without a report.', hint: 'Run doctor again.' };

export class DoctorStore extends HostStore<DoctorViewState> {
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();

  constructor(
    private readonly host: DoctorHost,
    private readonly now: () => number = Date.now,
  ) {
    super(host, { runs: {}, filter: { error: true, warning: true, info: true }, format: 'openai', groupBy: 'rule' });
  }

  override dispose(): void {
    super.dispose();
    this.timers.forEach((timer) => clearTimeout(timer));
    this.timers.clear();
  }

  /** Ask the proxy to examine `session`'s server; false when the socket is down (the run says so). */
  run(session: string): boolean {
    const requestId = newRequestId();
    const sent = this.host.send({ type: 'run-doctor', session, requestId });
    const old = this.state.runs[session] ?? {};
    if (!sent) {
      this.setRun(session, { ...old, pending: undefined, problem: NOT_SENT });
      return false;
    }
    this.setRun(session, { ...old, pending: requestId, problem: undefined });
    this.clearTimer(session);
    this.timers.set(session, setTimeout(() => this.giveUp(session, requestId), DOCTOR_GIVE_UP_MS));
    return true;
  }

  setFilter(patch: Partial<Record<Severity, boolean>>): void {
    this.set({ ...this.state, filter: { ...this.state.filter, ...patch } });
  }

  setGroupBy(groupBy: DoctorGrouping): void {
    if (groupBy !== this.state.groupBy) this.set({ ...this.state, groupBy });
  }

  setFormat(format: ExportFormat): void {
    if (format !== this.state.format) this.set({ ...this.state, format });
  }

  protected receive(message: ServerMessage): void {
    switch (message.type) {
      case 'doctor-report': {
        const run = this.state.runs[message.session];
        if (!run || run.pending !== message.requestId) return;
        this.clearTimer(message.session);
        if (message.report) this.setRun(message.session, { report: message.report, at: this.now() });
        else this.setRun(message.session, { ...run, pending: undefined, problem: message.error ? { message: message.error.message, hint: message.error.hint } : NO_REPORT });
        return;
      }
      case 'snapshot':
        // A new socket: an answer due on the old one will never come.
        for (const [session, run] of Object.entries(this.state.runs)) {
          if (run.pending === undefined) continue;
          this.clearTimer(session);
          this.setRun(session, { ...run, pending: undefined, problem: DROPPED });
        }
        return;
      case 'session-removed': {
        if (!(message.session in this.state.runs)) return;
        this.clearTimer(message.session);
        const { [message.session]: _gone, ...runs } = this.state.runs;
        this.set({ ...this.state, runs });
        return;
      }
      default:
        return;
    }
  }

  private giveUp(session: string, requestId: string): void {
    this.timers.delete(session);
    const run = this.state.runs[session];
    if (run?.pending === requestId) this.setRun(session, { ...run, pending: undefined, problem: GAVE_UP });
  }

  private clearTimer(session: string): void {
    clearTimeout(this.timers.get(session));
    this.timers.delete(session);
  }

  private setRun(session: string, run: DoctorRun): void {
    this.set({ ...this.state, runs: { ...this.state.runs, [session]: run } });
  }
}
