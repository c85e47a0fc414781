'use client';
/**
 * Export tool definitions (issue 14, point 5), wired to the tool lists the page already holds:
 * one server's tools in its Doctor tab, and every connected server's in the All servers view
 * (names `server__tool`). The conversion and cleaning are lib/doctor/export-tools.ts, the same as
 * `mcp-loupe --export-tools`; the chosen format is the tab's (doctor-store.ts).
 */
import { useMemo, type ReactNode } from 'react';
import { ToolExport } from '@/components/doctor/export.tsx';
import { fileNameFor } from '@/components/ui/download.ts';
import { exportTools, type ExportFormat } from '../../lib/doctor/export-tools.ts';
import type { ToolEntry } from '../../lib/schema/tool-schema.ts';
import type { ListState } from '../_stores/list-store.ts';
import { serverName } from './servers.tsx';
import { useToolLists } from '../_hooks/use-tool-lists.ts';
import { useLoupeSelector, useServices, useSessionInfo, useToolList } from '../_hooks/use-loupe.ts';
import { useStore } from '../_hooks/use-store.ts';

interface Exported {
  text?: string;
  notes: readonly string[];
}

function exported(servers: { name: string; tools: unknown[] }[], format: ExportFormat): Exported {
  if (servers.length === 0) return { notes: [] };
  const { definitions, notes } = exportTools(servers, format);
  return { text: JSON.stringify(definitions, null, 2), notes };
}

/** Why a server's tools cannot be exported yet; undefined once they are listed. */
function listNote(list: ListState<ToolEntry>, connected: boolean): string | undefined {
  if (!connected) return 'Connect the server to export its tools.';
  switch (list.status) {
    case 'idle':
    case 'loading':
      return 'Listing tools…';
    case 'unsupported':
      return 'This server offers no tools.';
    case 'error':
      return `Listing tools failed: ${list.error ?? 'unknown error'}`;
    default:
      return list.items.length === 0 ? 'The server lists no tools.' : undefined;
  }
}

const fileName = (base: string, format: ExportFormat) => `${fileNameFor(base, 'tools')}-${format}-tools.json`;

/** The Doctor tab's export: this server's tools, names as they are (cleaned to the provider's pattern). */
export function DoctorExportContainer(): ReactNode {
  const { doctor } = useServices();
  const { format } = useStore(doctor);
  const info = useSessionInfo();
  const list = useToolList();
  const name = info ? serverName(info) : 'server';
  const connected = info?.status === 'connected';
  const note = listNote(list, connected);
  const result = useMemo(
    () => (connected && list.status === 'done' ? exported([{ name, tools: list.items.map((t) => t.raw) }], format) : { notes: [] }),
    [connected, list, name, format],
  );
  return (
    <ToolExport title={`Export tools of ${name}`} format={format} onFormat={(f) => doctor.setFormat(f)} text={result.text} notes={result.notes} emptyNote={note} fileName={fileName(name, format)} />
  );
}


/** The All servers view's export: every connected server's listed tools, as `server__tool`. */
export function AllServersExportContainer(): ReactNode {
  const services = useServices();
  const { format } = useStore(services.doctor);
  const infos = useLoupeSelector((s) => s.sessions);
  const order = useLoupeSelector((s) => s.order);
  const ids = order.filter((id) => infos[id]);
  const models = useMemo(() => ids.map((id) => services.sessions.get(id)), [services, ids.join('\n')]);
  const lists = useToolLists(models);
  const { result, skipped } = useMemo(() => {
    const servers: { name: string; tools: unknown[] }[] = [];
    const left: string[] = [];
    models.forEach((model, i) => {
      const info = infos[model.id];
      if (!info) return;
      const name = serverName(info);
      const note = listNote(lists[i], info.status === 'connected');
      if (note === undefined) servers.push({ name, tools: lists[i].items.map((t) => t.raw) });
      else left.push(`${name}: ${note}`);
    });
    return { result: exported(servers, format), skipped: left };
  }, [models, lists, infos, format]);
  return (
    <ToolExport
      title="Export tools of every connected server"
      format={format}
      onFormat={(f) => services.doctor.setFormat(f)}
      text={result.text}
      notes={[...skipped.map((s) => `Not included: ${s}`), ...result.notes]}
      emptyNote={result.text === undefined ? 'No connected server lists tools yet.' : undefined}
      fileName={fileName('workspace', format)}
    />
  );
}
