/**
 * Everything the page holds for one session (issue 9, "one model per session"): its lists,
 * calls, tasks, resource and prompt views, trace index and the view state a switch of server
 * must keep. Every store talks to its server through the one SessionPort; none knows which
 * server the page shows.
 */
import type { ToolEntry } from '../../lib/schema/tool-schema.ts';
import { CallStore } from '../_stores/call-store.ts';
import { CompletionStore } from '../_stores/completion-store.ts';
import { PROMPTS, RESOURCE_TEMPLATES, RESOURCES, TOOLS, type PromptEntry, type ResourceEntry, type TemplateEntry } from '../_stores/list-specs.ts';
import { ListStore } from '../_stores/list-store.ts';
import { PromptStore } from '../_stores/prompt-store.ts';
import { ResourceStore } from '../_stores/resource-store.ts';
import type { SessionPort } from '../_wire/session-port.ts';
import { TasksStore } from '../_stores/tasks-store.ts';
import { TraceActions } from '../_stores/trace-actions.ts';
import { TraceStore } from '../_stores/trace-store.ts';
import { ValueStore } from '../_stores/value-store.ts';

/** A tool chosen in the list: by name (survives a re-list), the index telling duplicate names apart. */
export interface ToolSelection {
  name: string;
  index: number;
}

export interface SessionModel {
  readonly id: string;
  readonly port: SessionPort;
  tools: ListStore<ToolEntry>;
  resources: ListStore<ResourceEntry>;
  templates: ListStore<TemplateEntry>;
  prompts: ListStore<PromptEntry>;
  call: CallStore;
  tasks: TasksStore;
  /** The Resources tab: the resource read, subscriptions, update marks. */
  resourceView: ResourceStore;
  /** The Prompts tab: argument values and the latest prompts/get. */
  promptView: PromptStore;
  /** Suggestions for prompt arguments and template variables. */
  completions: CompletionStore;
  /** The History / Notifications view of the trace, and acting on it (composer, replay, ping). */
  trace: TraceStore;
  traceActions: TraceActions;
  /** The Tools tab's selected tool. */
  selectedTool: ValueStore<ToolSelection | undefined>;
  /** What was typed in each tool's form and not yet run, by tool name (issue 25): in memory only, never stored. */
  toolDrafts: Map<string, unknown>;
  dispose(): void;
}

export function createSessionModel(port: SessionPort): SessionModel {
  const stores = {
    tools: new ListStore(port, TOOLS),
    resources: new ListStore(port, RESOURCES),
    templates: new ListStore(port, RESOURCE_TEMPLATES),
    prompts: new ListStore(port, PROMPTS),
    call: new CallStore(port),
    tasks: new TasksStore(port),
    resourceView: new ResourceStore(port),
    promptView: new PromptStore(port),
    completions: new CompletionStore(port),
    trace: new TraceStore(port),
    traceActions: new TraceActions(port),
  };
  return {
    id: port.id,
    port,
    ...stores,
    selectedTool: new ValueStore<ToolSelection | undefined>(undefined),
    toolDrafts: new Map(),
    dispose() {
      for (const store of Object.values(stores)) if ('dispose' in store) store.dispose();
    },
  };
}
