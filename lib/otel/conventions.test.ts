import { describe, expect, it } from 'vitest';
import {
  ATTR_ERROR_TYPE, ATTR_GEN_AI_OPERATION_NAME, ATTR_GEN_AI_PROMPT_NAME, ATTR_GEN_AI_TOOL_CALL_ARGUMENTS, ATTR_GEN_AI_TOOL_CALL_RESULT, ATTR_GEN_AI_TOOL_NAME,
  ATTR_JSONRPC_REQUEST_ID, ATTR_MCP_METHOD_NAME, ATTR_MCP_PROTOCOL_VERSION, ATTR_MCP_RESOURCE_URI, ATTR_MCP_SESSION_ID, ATTR_NETWORK_TRANSPORT,
  ATTR_RPC_RESPONSE_STATUS_CODE, GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL, NETWORK_TRANSPORT_VALUE_PIPE, NETWORK_TRANSPORT_VALUE_TCP,
} from '@opentelemetry/semantic-conventions/incubating';
import { answerAttributes, requestAttributes, spanName } from './conventions.ts';

// The names are checked against the OpenTelemetry semantic-conventions package itself (its
// incubating entry holds the MCP and gen_ai attributes, status Development), not against a copy.
describe('the MCP semantic conventions’ names', () => {
  it('names a tool call’s attributes as the conventions package does', () => {
    const facts = { transport: 'http' as const, protocolVersion: '2025-11-25', sessionId: 'sess-1' };
    const call = requestAttributes('tools/call', 7, { name: 'echo', arguments: { a: 1 } }, facts, true);
    expect(call).toEqual({
      [ATTR_MCP_METHOD_NAME]: 'tools/call', [ATTR_JSONRPC_REQUEST_ID]: '7', [ATTR_GEN_AI_TOOL_NAME]: 'echo', [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
      [ATTR_GEN_AI_TOOL_CALL_ARGUMENTS]: '{"a":1}', [ATTR_MCP_PROTOCOL_VERSION]: '2025-11-25', [ATTR_MCP_SESSION_ID]: 'sess-1', [ATTR_NETWORK_TRANSPORT]: NETWORK_TRANSPORT_VALUE_TCP,
    });
    expect(answerAttributes('tools/call', { result: { content: [], isError: true } }, true).attributes).toEqual({ [ATTR_GEN_AI_TOOL_CALL_RESULT]: '{"content":[],"isError":true}', [ATTR_ERROR_TYPE]: 'tool_error' });
    expect(answerAttributes('ping', { error: { code: -32601, message: 'no' } }, false).attributes).toEqual({ [ATTR_ERROR_TYPE]: '-32601', [ATTR_RPC_RESPONSE_STATUS_CODE]: '-32601' });
  });

  it('names prompts and resources, never a URI in a span name, and no session id on 2026-07-28', () => {
    const stdio = { transport: 'stdio' as const, protocolVersion: '2026-07-28', sessionId: 'ignored' };
    expect(requestAttributes('prompts/get', 'p', { name: 'summarize' }, stdio, false)).toMatchObject({ [ATTR_GEN_AI_PROMPT_NAME]: 'summarize', [ATTR_NETWORK_TRANSPORT]: NETWORK_TRANSPORT_VALUE_PIPE });
    const read = requestAttributes('resources/read', 1, { uri: 'file:///a' }, stdio, false);
    expect(read[ATTR_MCP_RESOURCE_URI]).toBe('file:///a');
    expect(read).not.toHaveProperty(ATTR_MCP_SESSION_ID);
    expect([spanName('resources/read', { uri: 'file:///a' }), spanName('prompts/get', { name: 'summarize' }), spanName('tools/call', { name: 'echo' })]).toEqual(['resources/read', 'prompts/get summarize', 'tools/call echo']);
  });
});
