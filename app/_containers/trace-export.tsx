'use client';
/** The export form's container: which rows, which secrets, and the download itself. */
import { useState, type ReactNode } from 'react';
import { downloadData } from '@/components/ui/download.ts';
import { TraceExportForm } from '@/components/history/trace-export-form.tsx';
import { unfold, type TraceFilter } from '../../lib/trace/filter.ts';
import { defaultSecretChoice, exportTrace, secretValues, type SecretChoice } from '../../lib/trace/jsonl.ts';
import { sessionAsOtlp } from '../../lib/otel/session-files.ts';
import type { ServerConfig } from '../../lib/model/server-config.ts';
import type { TraceView } from '../_stores/trace-store.ts';

const NO_CONFIG: ServerConfig = { kind: 'stdio', command: '?', args: [], env: {} };

function fileName(view: TraceView): string {
  const server = (view.session?.serverInfo?.name ?? view.session?.config.name ?? 'session').replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 40);
  const stamp = new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);
  return `loupe-trace-${server}-${stamp}.jsonl`;
}

/** The filter in words: the query, then the controls that narrow (empty: nothing narrows). */
export function describeFilter(filter: TraceFilter): string {
  const parts: string[] = [];
  if (filter.query?.trim()) parts.push(filter.query.trim());
  if (filter.text.trim()) parts.push(JSON.stringify(filter.text.trim()));
  if (filter.kinds.length > 0) parts.push(`kinds ${filter.kinds.join(', ')}`);
  if (filter.methods.length > 0) parts.push(`method ${filter.methods.join(', ')}`);
  if (filter.dir !== 'any') parts.push(`direction ${filter.dir}`);
  if (filter.errorsOnly) parts.push('errors only');
  if (filter.violationsOnly) parts.push('violations only');
  return parts.join('; ');
}

export function ExportPanel({ view, onClose }: { view: TraceView; onClose(): void }): ReactNode {
  const config = view.session?.config ?? NO_CONFIG;
  const [scope, setScope] = useState<'all' | 'shown'>(view.rows.length !== view.index.rows.length ? 'shown' : 'all');
  const [secrets, setSecrets] = useState<SecretChoice>(() => defaultSecretChoice(config));
  const names = config.kind === 'stdio' ? Object.keys(config.env) : Object.keys(config.headers);
  const download = () => {
    if (!view.session) return;
    const rows = scope === 'all' ? view.index.rows : view.filter.fold ? unfold(view.rows) : view.rows;
    const text = exportTrace({
      session: view.session,
      stats: { session: view.session.id, kept: view.index.rows.length, dropped: view.dropped.proxy + view.dropped.tab },
      rows,
      attached: (row) => view.index.specEvents(row),
      secrets,
      filter: scope === 'shown' ? view.filter : undefined,
      exportedBy: 'MCP Loupe',
    });
    downloadData(text, fileName(view), 'application/x-ndjson');
  };
  // The rows as OpenTelemetry spans (issue 28); the marked values masked whatever the JSONL choice.
  const downloadOtlp = () => {
    if (!view.session) return;
    const rows = scope === 'all' ? view.index.rows : view.filter.fold ? unfold(view.rows) : view.rows;
    const otlp = sessionAsOtlp(view.session, rows.map((row) => row.event), secretValues(view.session.config, secrets));
    downloadData(JSON.stringify(otlp), fileName(view).replace(/\.jsonl$/, '.otlp.json'), 'application/json');
  };
  return (
    <TraceExportForm
      total={view.index.rows.length}
      shown={view.rows.length}
      scope={scope}
      filterText={describeFilter(view.filter) || undefined}
      names={names}
      what={config.kind === 'stdio' ? 'env' : 'headers'}
      secrets={secrets}
      onScope={setScope}
      onSecrets={setSecrets}
      onDownload={download}
      onDownloadOtlp={downloadOtlp}
      onClose={onClose}
    />
  );
}
