/**
 * What Loupe declares in `initialize` (the client's half of the handshake), as the user chose it,
 * and how to tell when a server asks for something that was not declared (a server bug).
 * https://modelcontextprotocol.io/specification/2025-11-25/client
 */
import { ClientCapabilityChoiceSchema, type ClientCapabilityChoice } from './wire.ts';

export const DEFAULT_CHOICE: ClientCapabilityChoice = ClientCapabilityChoiceSchema.parse({});

export type ChoiceKey = keyof ClientCapabilityChoice;

/** The choices in the order the form shows them; a dependent one needs its parent on. */
export const CHOICES: ReadonlyArray<{ key: ChoiceKey; label: string; parent?: ChoiceKey; declares: string }> = [
  { key: 'sampling', label: 'Sampling', declares: 'sampling' },
  { key: 'samplingTools', label: 'Sampling with tools', parent: 'sampling', declares: 'sampling.tools' },
  { key: 'elicitationForm', label: 'Elicitation: form', declares: 'elicitation.form' },
  { key: 'elicitationUrl', label: 'Elicitation: URL', declares: 'elicitation.url' },
  { key: 'roots', label: 'Roots', declares: 'roots' },
  { key: 'rootsListChanged', label: 'Roots list_changed', parent: 'roots', declares: 'roots.listChanged' },
  { key: 'tasks', label: 'Tasks', declares: 'tasks' },
];

/** Read a stored or partial choice; unknown keys are ignored, missing ones take the default. */
export function readChoice(value: unknown): ClientCapabilityChoice {
  const parsed = ClientCapabilityChoiceSchema.safeParse(value ?? {});
  return parsed.success ? parsed.data : DEFAULT_CHOICE;
}

/** Set one choice; turning a parent off turns its dependents off, turning a dependent on turns its parent on. */
export function setChoice(choice: ClientCapabilityChoice, key: ChoiceKey, on: boolean): ClientCapabilityChoice {
  const next = { ...choice, [key]: on };
  for (const item of CHOICES) {
    if (item.parent === key && !on) next[item.key] = false;
    if (item.key === key && item.parent && on) next[item.parent] = true;
  }
  return next;
}

/** The capability paths actually declared (`sampling.tools`, `roots.listChanged`, …). */
export function declaredList(choice: ClientCapabilityChoice): string[] {
  return CHOICES.filter((c) => choice[c.key] && (!c.parent || choice[c.parent])).map((c) => c.declares);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** JSON-RPC "Method not found": what a client answers a request for a capability it lacks. */
export const METHOD_NOT_FOUND = -32601;
/** JSON-RPC "Invalid params": a request for a sub-feature (tools, URL mode) that was not declared. */
export const INVALID_PARAMS = -32602;

export interface UndeclaredRequest {
  /** One plain sentence: what the server asked for that Loupe did not declare. */
  reason: string;
  /** The JSON-RPC error code a conforming client answers with. */
  code: number;
}

function elicitationMode(params: unknown): string {
  return isObject(params) && typeof params.mode === 'string' ? params.mode : 'form';
}

/**
 * Why a server→client request breaks the declared capabilities, or undefined when it is allowed.
 * Servers MUST NOT send requests for capabilities the client did not declare (spec: lifecycle,
 * capability negotiation), so each of these is the server's bug.
 */
export function undeclaredRequest(method: string, params: unknown, choice: ClientCapabilityChoice): UndeclaredRequest | undefined {
  if (method === 'sampling/createMessage') {
    if (!choice.sampling) return { reason: 'asked for sampling, which Loupe did not declare', code: METHOD_NOT_FOUND };
    const tools = isObject(params) && (params.tools !== undefined || params.toolChoice !== undefined);
    if (tools && !choice.samplingTools) return { reason: 'offered tools in a sampling request, but Loupe did not declare sampling.tools', code: INVALID_PARAMS };
    return undefined;
  }
  if (method === 'elicitation/create') {
    const mode = elicitationMode(params);
    if (!choice.elicitationForm && !choice.elicitationUrl) return { reason: 'asked for elicitation, which Loupe did not declare', code: METHOD_NOT_FOUND };
    if (mode === 'url' && !choice.elicitationUrl) return { reason: 'asked for a URL elicitation, but Loupe declared only form mode', code: INVALID_PARAMS };
    if (mode !== 'url' && !choice.elicitationForm) return { reason: 'asked for a form elicitation, but Loupe declared only URL mode', code: INVALID_PARAMS };
    return undefined;
  }
  if (method === 'roots/list' && !choice.roots) return { reason: 'asked for roots, which Loupe did not declare', code: METHOD_NOT_FOUND };
  if (method.startsWith('tasks/') && !choice.tasks) return { reason: `sent ${method}, but Loupe did not declare tasks`, code: METHOD_NOT_FOUND };
  return undefined;
}
