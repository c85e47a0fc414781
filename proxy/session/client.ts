/**
 * The SDK `Client` a session runs on: Loupe's client info and declared capabilities, the handlers
 * for the server's requests (client-side.ts), and what initialize told about the server.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks';
import type { ClientCapabilityChoice, Negotiation, Root, SessionInfo } from '../../lib/wire/wire.ts';
import { declaredCapabilities } from '../../lib/client/capabilities.ts';
import { registerClientHandlers } from './client-side.ts';
import type { ServerRequestBroker } from './server-requests.ts';
import { VERSION } from '../version.ts';
import { IGNORE_NOTIFICATION } from './raw-router.ts';

export const CLIENT_INFO = { name: 'mcp-loupe', title: 'MCP Loupe', version: VERSION };

/** The negotiation of a session opened as 2025-11-25 because that was chosen (the default). */
export const LEGACY_CHOSEN: Negotiation = {
  mode: '2025-11-25',
  era: 'legacy',
  reason: 'Protocol 2025-11-25 (the default): Loupe opened a session with initialize. Choose Auto or 2026-07-28 for a stateless server.',
};

export interface SessionClientOptions {
  session: string;
  choice: ClientCapabilityChoice;
  roots: () => Root[];
  serverRequestTimeoutMs: () => number;
  broker: ServerRequestBroker;
  onClose: (client: Client) => void;
}

export function createSessionClient(options: SessionClientOptions): Client {
  const { choice } = options;
  const taskStore = choice.tasks ? new InMemoryTaskStore() : undefined;
  const client = new Client(CLIENT_INFO, {
    capabilities: declaredCapabilities(choice),
    ...(taskStore ? { taskStore } : {}),
  });
  registerClientHandlers(client, { session: options.session, choice, roots: options.roots, timeoutMs: options.serverRequestTimeoutMs, broker: options.broker });
  // Every notification is in the trace already; accept them all so the SDK does not complain.
  client.fallbackNotificationHandler = IGNORE_NOTIFICATION;
  client.onclose = () => {
    // The store keeps a timer of the task's ttl (300 s and more) for each result it holds: a
    // closed session's tasks are gone, and their timers must not keep Loupe running.
    taskStore?.cleanup();
    options.onClose(client);
  };
  return client;
}

/** What the server said of itself in its initialize result. */
export function initializedInfo(client: Client): Pick<SessionInfo, 'serverInfo' | 'capabilities' | 'instructions'> {
  const server = client.getServerVersion();
  return {
    serverInfo: server && {
      name: server.name,
      version: server.version,
      title: server.title,
      websiteUrl: server.websiteUrl,
      icons: Array.isArray(server.icons) ? (server.icons as Record<string, unknown>[]) : undefined,
    },
    capabilities: client.getServerCapabilities() as Record<string, unknown> | undefined,
    instructions: client.getInstructions(),
  };
}
