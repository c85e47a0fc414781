/**
 * The server doctor's findings (issue 14): one shape for every rule — spec validation of frames,
 * server lint, LLM provider compatibility, tool poisoning — so that the Doctor tab, the report and
 * `mcp-loupe --doctor` render the same thing. Pure data; the rules are in lib/doctor-*.ts.
 */

export type Severity = 'error' | 'warning' | 'info';

/** What a finding is about: the server as a whole, one of its tools / resources / prompts, or one frame of the trace. */
export type FindingSubject =
  | { kind: 'server' }
  | { kind: 'tool' | 'resource' | 'resource-template' | 'prompt'; name: string }
  | { kind: 'frame'; seq: number; method?: string };

/** Where a rule comes from: a spec section, a provider's document (with the date it was read), a JSON Schema draft. */
export interface FindingSource {
  label: string;
  url: string;
  /** ISO date the document was read (provider rules change; the date says how old the rule is). */
  read?: string;
}

export interface Finding {
  severity: Severity;
  about: FindingSubject;
  /** Stable rule id, e.g. `tool-name-characters`, `openai-strict-additional-properties`. */
  rule: string;
  /** One plain sentence: what is wrong, naming the thing. */
  message: string;
  /** One plain sentence: how to fix it. */
  fix: string;
  source: FindingSource;
  /** For provider findings: the schema Loupe would send that provider instead. */
  cleaned?: unknown;
  /** For provider findings: which provider (`openai-strict`, `openai`, `anthropic`, `gemini`). */
  provider?: string;
}

/** What the doctor looks at for one server: what the session knows and what it fetched. */
export interface DoctorInput {
  server: { name: string; title?: string; version?: string };
  protocolVersion?: string;
  /** The protocol version Loupe asked for (initialize's, or the 2026 envelope's): the lint compares the answer with it. */
  requested?: string;
  era?: 'legacy' | 'modern';
  /** The server's declared capabilities, as sent. */
  capabilities?: Record<string, unknown>;
  /** Each list as fetched (every page), or how fetching it failed. */
  lists: Partial<Record<'tools' | 'resources' | 'resourceTemplates' | 'prompts', ListFetch>>;
  /** Content hashes of the tools as last seen in the workspace (hash pinning), by tool name. */
  pins?: Record<string, string>;
  /** MCP Apps (issue 24): each distinct `ui://` view a tool links, by URI, as `resources/read` gave it. */
  views?: Record<string, ViewFetch>;
}

/** One view's `resources/read`: the result as sent, or how the read failed. */
export interface ViewFetch {
  result?: unknown;
  error?: { code?: number | string; message: string };
}

export interface ListFetch {
  /** Every item of every page, in order. */
  items: unknown[];
  /** The pages' `nextCursor`s in order (a repeat means the pagination loops). */
  cursors: string[];
  /** The list request failed: its error as sent (or Loupe's words). */
  error?: { code?: number | string; message: string };
  /** Loupe stopped following pages (a loop, a cap). */
  stopped?: string;
}

export interface DoctorReport {
  server: DoctorInput['server'];
  protocolVersion?: string;
  findings: Finding[];
  counts: Record<Severity, number>;
}

export function countFindings(findings: readonly Finding[]): Record<Severity, number> {
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  for (const f of findings) counts[f.severity]++;
  return counts;
}
