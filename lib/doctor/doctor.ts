/**
 * The server doctor (issue 14): every rule over what Loupe fetched of one server — server lint,
 * LLM provider compatibility, tool poisoning, MCP Apps views — and the spec findings its trace carries. One report
 * for the Doctor tab and `mcp-loupe --doctor`.
 */
import { countFindings, type DoctorInput, type DoctorReport, type Finding, type Severity } from '../model/doctor.ts';
import { lintServer } from './lint.ts';
import { providerFindings } from './providers.ts';
import { poisonFindings } from './poison.ts';
import { appFindings } from './apps.ts';

const ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** Errors first, then by thing (server, then each thing by kind and name, then frames by seq). */
export function sortFindings(findings: readonly Finding[]): Finding[] {
  const thing = (f: Finding): string => {
    const a = f.about;
    if (a.kind === 'server') return '0';
    if (a.kind === 'frame') return `9 ${String(a.seq).padStart(12, '0')}`;
    return `5 ${a.kind} ${a.name}`;
  };
  return [...findings].sort((x, y) => ORDER[x.severity] - ORDER[y.severity] || thing(x).localeCompare(thing(y)) || x.rule.localeCompare(y.rule));
}

/** `frames`: the spec findings of the session's trace (lib/doctor/spec.ts), which the proxy already has. */
export function runDoctor(input: DoctorInput, frames: readonly Finding[] = []): DoctorReport {
  // A provider's refusal is what a host must clean before sending (the finding carries the cleaned
  // schema), not a fault of the server's MCP: at most a warning, so that `--doctor` fails a CI run
  // for what breaks MCP and its hosts, not for every schema OpenAI's strict mode would not take.
  // Strict mode is a host's opt-in, and Loupe's export sends "strict": false where it would not
  // fit: those findings are information, or every ordinary schema would read as a warning.
  const providers = providerFindings(input).map((f): Finding => {
    if (f.provider === 'openai-strict' || f.rule === 'openai-silent-strict') return { ...f, severity: 'info' };
    return f.severity === 'error' ? { ...f, severity: 'warning' } : f;
  });
  const findings = sortFindings([...lintServer(input), ...providers, ...poisonFindings(input), ...appFindings(input), ...frames]);
  return { server: input.server, protocolVersion: input.protocolVersion, findings, counts: countFindings(findings) };
}
