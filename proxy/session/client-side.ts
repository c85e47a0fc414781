/**
 * Loupe's part as an MCP client: what it declares in `initialize`, and how it answers the server's
 * requests — roots from the session's list, sampling and elicitation by asking the user (through
 * the broker), as a task when the server asks for one.
 * https://modelcontextprotocol.io/specification/2025-11-25/client
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CreateMessageRequestSchema, ElicitRequestSchema, ListRootsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { ClientCapabilityChoice, Root } from '../../lib/wire/wire.ts';
import type { ServerRequestBroker } from './server-requests.ts';

export interface ClientSideContext {
  session: string;
  choice: ClientCapabilityChoice;
  roots(): Root[];
  timeoutMs(): number;
  broker: ServerRequestBroker;
}

type Extra = Parameters<Parameters<Client['setRequestHandler']>[1]>[1];

/** Asks the user; the answer, or a JSON-RPC error the SDK sends back to the server. */
async function askUser(ctx: ClientSideContext, method: string, params: Record<string, unknown>, extra: Extra, signal: AbortSignal): Promise<Record<string, unknown>> {
  const outcome = await ctx.broker.ask({ session: ctx.session, rpcId: extra.requestId, method, params }, ctx.timeoutMs(), signal);
  if (!outcome.ok) throw new McpError(outcome.error.code, outcome.error.message, outcome.error.data);
  return outcome.result;
}

/**
 * A task-augmented request (params.task) is acknowledged at once with a task; the user's answer
 * becomes the task's result, which the server fetches with tasks/result (the SDK's task store
 * answers tasks/get, tasks/result, tasks/list and tasks/cancel).
 */
async function answer(ctx: ClientSideContext, method: string, params: Record<string, unknown>, extra: Extra): Promise<Record<string, unknown>> {
  const store = extra.taskStore;
  if (params.task === undefined || !store) return askUser(ctx, method, params, extra, extra.signal);
  const ttl = (params.task as { ttl?: number }).ttl;
  const task = await store.createTask({ ttl });
  const detached = new AbortController();
  askUser(ctx, method, params, extra, detached.signal).then(
    (result) => store.storeTaskResult(task.taskId, 'completed', result),
    (error: Error) => store.storeTaskResult(task.taskId, 'failed', { content: [{ type: 'text', text: error.message }], isError: true }),
  ).catch(() => undefined);
  return { task };
}

export function registerClientHandlers(client: Client, ctx: ClientSideContext): void {
  const { choice } = ctx;
  if (choice.roots) client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: ctx.roots() }));
  if (choice.sampling) {
    client.setRequestHandler(CreateMessageRequestSchema, (request, extra) => answer(ctx, request.method, request.params as Record<string, unknown>, extra) as never);
  }
  if (choice.elicitationForm || choice.elicitationUrl) {
    client.setRequestHandler(ElicitRequestSchema, (request, extra) => answer(ctx, request.method, request.params as Record<string, unknown>, extra) as never);
  }
}
