/**
 * The parsed command line's shapes, shared by its parts: `options.ts` composes the parsers
 * (`headless.ts`, `oauth.ts`, `relay.ts`) and `target.ts`, each of which reads or fills a `CliOptions`.
 * Here, and not in `options.ts`, so that the parts need nothing of the module that composes them.
 */
import type { OutputFormat } from '../../lib/headless/cli-output.ts';
import type { ProtocolChoice } from '../../lib/model/server-config.ts';
import type { CliOAuthOptions } from './oauth.ts';
import type { RelayOptions } from './relay.ts';
import type { OtelCliOptions } from '../otel/settings.ts';

export interface CliOptions {
  /** `undefined`: a free port near 6280; `0`: any free port. */
  port?: number;
  /** Open a browser once listening (`--no-open` turns it off). */
  open: boolean;
  /** Interface to listen on: loopback unless `--dangerously-listen-on`. */
  host: string;
  env: Record<string, string>;
  cwd?: string;
  transport?: 'stdio' | 'http' | 'sse';
  /** `--protocol`: the generation every server speaks (issue 12); absent: each server's own, else 2025-11-25. */
  protocol?: ProtocolChoice;
  headers: Record<string, string>;
  config?: string;
  /** `--server NAME`, repeatable: the servers of the --config file to connect (none: all of them). */
  servers: string[];
  help: boolean;
  version: boolean;
  /** Events kept per session in the proxy's trace (oldest dropped, and counted, beyond it). */
  traceLimit?: number;
  /** Milliseconds `initialize` (and HTTP discovery) may take before Loupe gives up (`--connect-timeout`). */
  connectTimeoutMs?: number;
  /** The target command and its arguments verbatim, or one URL; empty when none was given. */
  target: string[];
  /** The modes without a browser and their options (headless.ts); all off for the UI. */
  headless: HeadlessOptions;
  /** Signing in to a remote server with OAuth, in every mode (oauth.ts). */
  oauth: CliOAuthOptions;
  /** The tap, the gateway and `--rules` (issue 13, relay.ts). */
  relay: RelayOptions;
  /**
   * `--watch [PATH]…` (issue 25): restart the stdio server when these change; `[]`: what
   * proxy/system/watch.ts planWatch chooses (the script's folder). Absent: not watching.
   */
  watch?: string[];
  /** `--otlp` and its options (issue 28, otel.ts); absent: none given. */
  otel?: OtelCliOptions;
}

export type HeadlessMode = 'cli' | 'smoke' | 'mock' | 'verify' | 'lock' | 'doctor' | 'export-tools' | 'eval' | 'test';
export type ExportToolsFormat = 'openai' | 'anthropic' | 'gemini';
export type ElicitPolicy = 'accept-defaults' | 'decline' | 'cancel';

export const CLI_METHODS = [
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'prompts/list',
  'prompts/get',
  'ping',
  'initialize',
] as const;
export type CliMethod = (typeof CLI_METHODS)[number];

/** The modes without a browser and their options, as parsed (headless.ts); `modeOf` says which mode. */
export interface HeadlessOptions {
  cli: boolean;
  smoke: boolean;
  method?: CliMethod;
  toolName?: string;
  /** `key=value` / `key:=json`, as typed; read against the tool's schema once it is known (proxy/faces/cli/run.ts). */
  toolArgs: string[];
  /** `--args '<json object>'`, parsed. */
  args?: Record<string, unknown>;
  uri?: string;
  promptName?: string;
  promptArgs: string[];
  /** `markdown` is for --doctor only. */
  format: OutputFormat | 'markdown';
  /** `--doctor` (issue 14): lint and validate the server, report; exit 1 on errors. */
  doctor: boolean;
  /** `--export-tools FORMAT` (issue 14): the tool definitions for an LLM API on stdout. */
  exportTools?: ExportToolsFormat;
  verbose: boolean;
  /** `--filter QUERY` (issue 26): --verbose prints only the frames the History query lets through. */
  filter?: string;
  /** `--timeout`: each request's (and, without --connect-timeout, initialize's) limit in ms. */
  timeoutMs?: number;
  elicit?: ElicitPolicy;
  sample?: string;
  roots: string[];
  record?: string;
  junit?: string;
  /** `--no-negative`: smoke calls only the valid case of each tool. */
  negative: boolean;
  /** `--allow-writes`: smoke calls the tools that may change data too (lib/headless/smoke-writes.ts). */
  allowWrites: boolean;
  mock?: string;
  mockPort?: number;
  /** `--mock-no-auth`: the HTTP mock asks for no bearer token (warned about on stderr). */
  mockNoAuth: boolean;
  verify?: string;
  ignore: string[];
  lock?: string;
  /** `--update-lock`: rewrite the lockfile instead of checking it. */
  updateLock: boolean;
  /** `--eval FILE` (issue 27): the eval file's cases, run by models against the server (evals.ts). */
  eval?: string;
  /** `--model WORD`, repeatable: the models of --eval (lib/evals/models.ts); absent: the file's. */
  models?: string[];
  /** `--repeats N`: runs of each case with each model; absent: the file's, else 1. */
  repeats?: number;
  /** `--test FILE` (issue 27): the collection file whose collections run against the server (collections.ts). */
  test?: string;
  /** `--collection NAME`, repeatable: run only these collections of the --test file. */
  collections?: string[];
  /** `--var NAME=VALUE` / `NAME:=JSON`, repeatable: variables that win over the file's and over extracts. */
  vars?: Record<string, unknown>;
}
