/**
 * What Loupe declares in `initialize` (the client's half of the handshake), as the user chose it.
 * (Requests for what was not declared are found in the trace: trace-violations.ts.)
 * https://modelcontextprotocol.io/specification/2025-11-25/client
 */
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { ClientCapabilityChoiceSchema, type ClientCapabilityChoice } from '../wire/capability-choice.ts';
import { TASKS_EXTENSION } from '../model/modern-meta.ts';
import { APP_MIME, APPS_EXTENSION } from '../apps/meta.ts';

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
  { key: 'apps', label: 'MCP Apps (views)', declares: 'extensions.io.modelcontextprotocol/ui' },
];

/** The MCP Apps extension as Loupe declares it (issue 24): views of this MIME type only. */
export const APPS_DECLARATION = { [APPS_EXTENSION]: { mimeTypes: [APP_MIME] } };

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

/** The `capabilities` object of the `initialize` request for a choice (what the proxy sends). */
export function declaredCapabilities(choice: ClientCapabilityChoice): ClientCapabilities {
  const caps: ClientCapabilities = {};
  if (choice.sampling) caps.sampling = choice.samplingTools ? { tools: {} } : {};
  if (choice.elicitationForm || choice.elicitationUrl) {
    caps.elicitation = { ...(choice.elicitationForm ? { form: {} } : {}), ...(choice.elicitationUrl ? { url: {} } : {}) };
  }
  if (choice.roots) caps.roots = { listChanged: choice.rootsListChanged };
  if (choice.tasks) {
    caps.tasks = {
      list: {},
      cancel: {},
      requests: {
        ...(choice.sampling ? { sampling: { createMessage: {} } } : {}),
        ...(caps.elicitation ? { elicitation: { create: {} } } : {}),
      },
    };
  }
  if (choice.apps) caps.extensions = { ...APPS_DECLARATION };
  return caps;
}

export { TASKS_EXTENSION };

/**
 * The client capabilities a 2026-07-28 request carries in its `_meta` (issue 12): the same
 * choice, with tasks declared as the extension and without `roots.listChanged` (there is no
 * notification channel from client to a stateless server to change it on).
 */
export function modernCapabilities(choice: ClientCapabilityChoice): Record<string, unknown> {
  const caps: Record<string, unknown> = {};
  if (choice.sampling) caps.sampling = choice.samplingTools ? { tools: {} } : {};
  if (choice.elicitationForm || choice.elicitationUrl) {
    caps.elicitation = { ...(choice.elicitationForm ? { form: {} } : {}), ...(choice.elicitationUrl ? { url: {} } : {}) };
  }
  if (choice.roots) caps.roots = {};
  if (choice.tasks || choice.apps) caps.extensions = { ...(choice.tasks ? { [TASKS_EXTENSION]: {} } : {}), ...(choice.apps ? APPS_DECLARATION : {}) };
  return caps;
}
