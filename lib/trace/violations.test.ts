import { describe, expect, it } from 'vitest';
import { cancelledRequestId, capabilityViolation, declaredInInitialize, frameViolations, requiredCapabilities, specLabel, VIOLATION_LABELS } from './violations.ts';
import type { ClientCapabilityChoice } from '../wire/wire.ts';

const none: ClientCapabilityChoice = { sampling: false, samplingTools: false, elicitationForm: false, elicitationUrl: false, roots: false, rootsListChanged: false, tasks: false, apps: false };

describe('frameViolations', () => {
  it('finds nothing on a valid frame, without parsing it', () => {
    expect(frameViolations({ raw: 'not even read', rpc: 'notification', method: 'notifications/message' })).toEqual([]);
  });
  it('names what is wrong with an invalid one', () => {
    expect(frameViolations({ raw: '{"jsonrpc":"1.0","id":1,"result":{}}', rpc: 'invalid' }).map((v) => v.code)).toEqual(['jsonrpc-version']);
    expect(frameViolations({ raw: '{"id":1,"result":{}}', rpc: 'invalid' })[0].message).toBe('"jsonrpc" is missing; it must be "2.0".');
    expect(frameViolations({ raw: '{"jsonrpc":"2.0","id":null,"method":"x"}', rpc: 'invalid' }).map((v) => v.code)).toEqual(['notification-with-id']);
    expect(frameViolations({ raw: '{"jsonrpc":"2.0","result":{}}', rpc: 'invalid' }).map((v) => v.code)).toEqual(['not-json-rpc']);
    expect(frameViolations({ raw: '[1,2]', rpc: 'invalid' }).map((v) => v.code)).toEqual(['not-json-rpc']);
    expect(frameViolations({ raw: '{"jsonrpc":"2.0","id":3,"method":"notifications/progress"}', rpc: 'request', method: 'notifications/progress', id: 3 }).map((v) => v.code)).toEqual(['notification-with-id']);
  });
});

describe('capabilities', () => {
  it('knows which server→client requests need which capability', () => {
    expect(requiredCapabilities('ping', {})).toBeUndefined();
    expect(requiredCapabilities('sampling/createMessage', { params: { tools: [] } })?.map((c) => c.name)).toEqual(['sampling', 'sampling.tools']);
    expect(requiredCapabilities('elicitation/create', { params: {} })?.map((c) => c.name)).toEqual(['elicitation.form']);
    expect(requiredCapabilities('elicitation/create', { params: { mode: 'url' } })?.map((c) => c.name)).toEqual(['elicitation.url']);
    expect(requiredCapabilities('tasks/get', {})?.map((c) => c.name)).toEqual(['tasks']);
  });
  it('reports only what is missing', () => {
    expect(capabilityViolation('roots/list', {}, { ...none, roots: true })).toBeUndefined();
    expect(capabilityViolation('sampling/createMessage', { params: { toolChoice: {} } }, { ...none, sampling: true })?.message).toMatch(/sampling\.tools capability/);
  });
  it('reads what initialize declared', () => {
    const raw = (capabilities: unknown) => JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { capabilities } });
    expect(declaredInInitialize(raw({}))).toEqual(none);
    expect(declaredInInitialize(raw({ elicitation: {} }))).toEqual({ ...none, elicitationForm: true });
    expect(declaredInInitialize(raw({ sampling: { tools: {} }, roots: { listChanged: true }, elicitation: { url: {} }, tasks: {} }))).toEqual({ ...none, sampling: true, samplingTools: true, roots: true, rootsListChanged: true, elicitationUrl: true, tasks: true });
    expect(declaredInInitialize('{"params":{}}')).toBeUndefined();
  });
});

describe('cancelledRequestId', () => {
  it('reads params.requestId of a cancellation only', () => {
    expect(cancelledRequestId({ method: 'notifications/cancelled', raw: '{"params":{"requestId":"a"}}' })).toBe('a');
    expect(cancelledRequestId({ method: 'notifications/cancelled', raw: '{"params":{}}' })).toBeUndefined();
    expect(cancelledRequestId({ method: 'notifications/progress', raw: '{"params":{"requestId":1}}' })).toBeUndefined();
  });
});

describe('how violations are shown', () => {
  it('labels every code, and names a spec section by its place in the spec', () => {
    expect(VIOLATION_LABELS['header-mismatch']).toBe('HTTP headers do not match the body');
    expect(specLabel('https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#server-validation')).toBe('Spec: 2026-07-28/basic/transports/streamable-http#server-validation');
    expect(specLabel('https://modelcontextprotocol.io/extensions/tasks/overview')).toBe('Spec: extensions/tasks/overview');
  });
});
