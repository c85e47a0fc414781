/** The stores of one tab, created together so that they share one socket. */
import type { ToolEntry } from '../lib/tool-schema.ts';
import { CallStore } from './call-store.ts';
import { ClientSettingsStore } from './client-settings-store.ts';
import { PROMPTS, RESOURCE_TEMPLATES, RESOURCES, TOOLS, type PromptEntry, type ResourceEntry, type TemplateEntry } from './list-specs.ts';
import { ListStore } from './list-store.ts';
import { LoupeStore } from './loupe-store.ts';
import { ServerRequestStore } from './server-request-store.ts';
import { TasksStore } from './tasks-store.ts';
import { ThemeStore } from './theme-store.ts';
import { TraceActions } from './trace-actions.ts';
import { TraceStore } from './trace-store.ts';
import { ArgsStore } from './args-store.ts';
import { NavStore } from './nav-store.ts';
import { PromptStore } from './prompt-store.ts';
import { ResourceStore } from './resource-store.ts';

export interface LoupeServices {
  app: LoupeStore;
  tools: ListStore<ToolEntry>;
  resources: ListStore<ResourceEntry>;
  templates: ListStore<TemplateEntry>;
  prompts: ListStore<PromptEntry>;
  call: CallStore;
  theme: ThemeStore;
  serverRequests: ServerRequestStore;
  tasks: TasksStore;
  clientSettings: ClientSettingsStore;
  /** The History / Notifications view of the trace, and acting on it (composer, replay, ping). */
  trace: TraceStore;
  traceActions: TraceActions;
  /** The main tab shown (a resource link opens the Resources tab). */
  nav: NavStore;
  /** The last arguments of each tool, per server. */
  args: ArgsStore;
  /** The Resources tab: the resource read, subscriptions, update marks. */
  resourceView: ResourceStore;
  /** The Prompts tab: argument values and the latest prompts/get. */
  promptView: PromptStore;
}

export function createServices(): LoupeServices {
  const app = new LoupeStore();
  return {
    app,
    tools: new ListStore(app, TOOLS),
    resources: new ListStore(app, RESOURCES),
    templates: new ListStore(app, RESOURCE_TEMPLATES),
    prompts: new ListStore(app, PROMPTS),
    call: new CallStore(app),
    theme: new ThemeStore(),
    serverRequests: new ServerRequestStore(app),
    tasks: new TasksStore(app),
    clientSettings: new ClientSettingsStore(),
    trace: new TraceStore(app),
    traceActions: new TraceActions(app),
    nav: new NavStore(),
    args: new ArgsStore(),
    resourceView: new ResourceStore(app),
    promptView: new PromptStore(app),
  };
}

/** Start the browser side (socket, theme); returns the matching stop. */
export function startServices(services: LoupeServices): () => void {
  services.app.start();
  const stopTheme = services.theme.start();
  services.clientSettings.start();
  return () => {
    stopTheme();
    services.app.stop();
  };
}
