/** The stores of one tab, created together so that they share one socket. */
import type { ToolEntry } from '../lib/tool-schema.ts';
import { CallStore } from './call-store.ts';
import { PROMPTS, RESOURCE_TEMPLATES, RESOURCES, TOOLS, type PromptEntry, type ResourceEntry, type TemplateEntry } from './list-specs.ts';
import { ListStore } from './list-store.ts';
import { LoupeStore } from './loupe-store.ts';
import { ThemeStore } from './theme-store.ts';

export interface LoupeServices {
  app: LoupeStore;
  tools: ListStore<ToolEntry>;
  resources: ListStore<ResourceEntry>;
  templates: ListStore<TemplateEntry>;
  prompts: ListStore<PromptEntry>;
  call: CallStore;
  theme: ThemeStore;
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
  };
}

/** Start the browser side (socket, theme); returns the matching stop. */
export function startServices(services: LoupeServices): () => void {
  services.app.start();
  const stopTheme = services.theme.start();
  return () => {
    stopTheme();
    services.app.stop();
  };
}
