/**
 * The connection form for a server that is not the selected session's connection: a new one
 * (`Add server`, sends add-server) or an edit of one (prefilled, sends update-server). Its
 * buttons are named apart from the connection panel's `Connect` / `Cancel` (docs/contract.md).
 */
import type { ReactNode } from 'react';
import type { ServerConfig } from '../../lib/model/server-config.ts';
import type { ClientCapabilityChoice } from '../../lib/wire/wire.ts';
import { ConnectionForm, type ClientOptions, type Secrets } from '../connection/form.tsx';
import { buttonClass, Panel } from '../ui/ui.tsx';

export interface ServerEditorProps {
  /** `add`: a new server; `edit`: the named one. */
  mode: 'add' | 'edit';
  name?: string;
  config?: ServerConfig;
  secrets?: Secrets;
  clientCapabilities?: ClientCapabilityChoice;
  timeoutSeconds?: number;
  canSubmit: boolean;
  onSubmit(config: ServerConfig, client: ClientOptions, secrets: Secrets): void;
  onClose(): void;
}

export function ServerEditor(props: ServerEditorProps): ReactNode {
  const title = props.mode === 'add' ? 'New server' : `Edit ${props.name ?? 'server'}`;
  return (
    <Panel
      label={title}
      title={title}
      actions={<button type="button" className={`${buttonClass} !px-2 !py-0.5 !text-xs`} onClick={props.onClose}>Close form</button>}
    >
      <ConnectionForm
        config={props.config}
        secrets={props.secrets}
        clientCapabilities={props.clientCapabilities}
        timeoutSeconds={props.timeoutSeconds}
        canConnect={props.canSubmit}
        canDisconnect={false}
        submitLabel={props.mode === 'add' ? 'Add and connect' : 'Save server'}
        onConnect={props.onSubmit}
      />
    </Panel>
  );
}
