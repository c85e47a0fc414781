#!/usr/bin/env node
/**
 * `mcp-loupe [options] <command> [args...] | <url> | --config <file> [--server <name>]`
 * (CONTRACT.md). Prints one line with the page URL and runs until SIGINT/SIGTERM, then stops every
 * process it started and exits 0.
 */
import { readFileSync } from 'node:fs';
import { describeConfig } from '../lib/server-config.ts';
import { parseCliArgs, resolveTarget, USAGE } from './cli-args.ts';
import { defaultServer } from './default-server.ts';
import { launch, VERSION } from './launch.ts';
import { openBrowser } from './open-browser.ts';
import { isLoopbackAddress } from './security.ts';

function exitWith(message: string, code = 2): never {
  process.stderr.write(`mcp-loupe: ${message}\n`);
  process.exit(code);
}

async function main(argv: string[]): Promise<void> {
  const parsed = parseCliArgs(argv);
  if (!parsed.ok) exitWith(`${parsed.error}\n\n${USAGE}`);
  const options = parsed.options;
  if (options.help) {
    process.stdout.write(USAGE);
    return;
  }
  if (options.version) {
    process.stdout.write(`${VERSION}\n`);
    return;
  }
  const target = resolveTarget(options, { readFile: (path) => readFileSync(path, 'utf8'), defaultServer });
  if (!target.ok) exitWith(target.error);
  for (const warning of target.value.warnings) process.stderr.write(`mcp-loupe: warning: ${warning}\n`);

  const exposed = !isLoopbackAddress(options.host);
  const loupe = await launch({
    config: target.value.config,
    port: options.port,
    host: options.host,
    traceLimit: options.traceLimit,
    extraHosts: exposed ? [options.host] : undefined,
  }).catch((error: NodeJS.ErrnoException) =>
    exitWith(error.code === 'EADDRINUSE' ? `port ${options.port} is in use; choose another with --port` : `could not start: ${error.message}`, 1),
  );

  if (exposed) process.stderr.write(`mcp-loupe: WARNING: listening on ${options.host}: anyone who can reach it and has the token can run commands on this machine.\n`);
  const what = target.value.isDefault ? 'the bundled demo server (server-everything)' : describeConfig(target.value.config);
  process.stdout.write(`MCP Loupe ${VERSION} is inspecting ${what}\nOpen ${loupe.url}\n`);
  if (options.open) openBrowser(loupe.url);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`mcp-loupe: ${signal}: stopping servers…\n`);
    const force = setTimeout(() => process.exit(0), 5_000);
    force.unref();
    loupe.close().then(
      () => process.exit(0),
      () => process.exit(0),
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGHUP', () => stop('SIGHUP'));
}

main(process.argv.slice(2)).catch((error: unknown) => exitWith(error instanceof Error ? (error.stack ?? error.message) : String(error), 1));
