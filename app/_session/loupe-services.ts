/** The stores of one tab, created together so that they share one socket. */
import { ClientSettingsStore } from '../_stores/client-settings-store.ts';
import { DoctorStore } from '../_stores/doctor-store.ts';
import { SurfaceStore } from '../_stores/surface-store.ts';
import { LayoutStore } from '../_stores/layout-store.ts';
import { InterceptStore } from '../_stores/intercept-store.ts';
import { LoupeStore } from './loupe-store.ts';
import { ServerRequestStore } from '../_stores/server-request-store.ts';
import { SessionRegistry } from './registry.ts';
import { ThemeStore } from '../_stores/theme-store.ts';
import { AppsStore } from '../_stores/apps-store.ts';
import { saveFile } from '@/components/ui/download.ts';
import { ArgsStore } from '../_stores/args-store.ts';
import { NavStore } from '../_stores/nav-store.ts';
import { OAuthStore } from '../_stores/oauth-store.ts';
import { PlaygroundStore } from '../_stores/playground-store.ts';
import { EvalsStore } from '../_stores/evals-store.ts';
import { SamplingModelStore } from '../_stores/sampling-model-store.ts';
import { ValueStore } from '../_stores/value-store.ts';

/** The entry of the Servers panel for the merged views (issue 9). */
export const ALL_SERVERS = '*';

export interface LoupeServices {
  app: LoupeStore;
  /** One model per session (lists, calls, tasks, trace …), made when first shown. */
  sessions: SessionRegistry;
  /**
   * Which server the page shows (a session id, or ALL_SERVERS); undefined: the default one
   * (the primary). Navigation only: no store follows it.
   */
  selected: ValueStore<string | undefined>;
  theme: ThemeStore;
  /**
   * Server→client requests of every session: a sampling or elicitation request is shown whatever
   * server is selected, since the server waits for it.
   */
  serverRequests: ServerRequestStore;
  clientSettings: ClientSettingsStore;
  /** The main tab shown (a resource link opens the Resources tab). */
  nav: NavStore;
  /** The last arguments of each tool, per server. */
  args: ArgsStore;
  /** The guided OAuth flows of every session (issue 11) and the OAuth messages. */
  oauth: OAuthStore;
  /** The server doctor's reports of every session, and the Doctor tab's choices (issue 14). */
  doctor: DoctorStore;
  /** The interception rules and the frames held, of every session (issue 13). */
  intercept: InterceptStore;
  /** The Playground's settings and conversations, across servers (issue 15). */
  playground: PlaygroundStore;
  /** The Playground's Evals: cases, the models to run them with, the runs (issue 27). */
  evals: EvalsStore;
  /** `Ask model` on pending sampling requests: the Playground's model's suggested replies (issue 15). */
  samplingModel: SamplingModelStore;
  /** The MCP Apps views of this tab, one per tool of a session, and the pipe to their sandboxes (issue 24). */
  apps: AppsStore;
  /** Each session's surface at each connect, and the pair compared (issue 25). */
  surfaces: SurfaceStore;
  /** The side column open or not, and the sizes of resizable panes (issue 26). */
  layout: LayoutStore;
}

export function createServices(): LoupeServices {
  const app = new LoupeStore();
  const playground = new PlaygroundStore(app);
  return {
    app,
    sessions: new SessionRegistry(app),
    selected: new ValueStore<string | undefined>(undefined),
    theme: new ThemeStore(),
    serverRequests: new ServerRequestStore(app),
    clientSettings: new ClientSettingsStore(),
    nav: new NavStore(),
    args: new ArgsStore(),
    oauth: new OAuthStore(app),
    doctor: new DoctorStore(app),
    intercept: new InterceptStore(app),
    playground,
    evals: new EvalsStore(app),
    samplingModel: new SamplingModelStore(app, playground),
    apps: new AppsStore(app, undefined, saveFile),
    surfaces: new SurfaceStore(app),
    layout: new LayoutStore(),
  };
}

/** Start the browser side (socket, theme); returns the matching stop. */
export function startServices(services: LoupeServices): () => void {
  services.app.start();
  const stopTheme = services.theme.start();
  services.clientSettings.start();
  services.layout.start();
  return () => {
    stopTheme();
    services.app.stop();
  };
}
