/**
 * Which Chromium the e2e suite drives.
 *
 * `npx playwright install` is not always possible (offline CI, locked-down machines), and most
 * developer machines already have a Chromium or Chrome. So: an explicit choice first, then
 * Playwright's own download if it is there, then the usual system locations.
 *
 * `.ci/run` relies on the message of the error thrown below starting with `No Chromium found`
 * (it asks Playwright to load the config, and installs Debian's chromium when it sees that).
 */
import { existsSync } from 'node:fs';
import { chromium } from '@playwright/test';

export const NO_CHROMIUM = 'No Chromium found';

/** The system locations we look at, in order. */
export const SYSTEM_CHROMIUMS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
];

/** Flags for a quiet, offline, headless run (headless itself comes from Playwright's option). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

interface Candidate {
  path: string;
  from: string;
}

function candidates(env: NodeJS.ProcessEnv, system: readonly string[]): Candidate[] {
  const list: Candidate[] = [];
  for (const name of ['LOUPE_CHROMIUM', 'PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH']) {
    const value = env[name];
    if (value) list.push({ path: value, from: `env ${name}` });
  }
  list.push({ path: playwrightChromium(), from: "Playwright's downloaded browser" });
  for (const path of system) list.push({ path, from: 'system' });
  return list;
}

function playwrightChromium(): string {
  try {
    return chromium.executablePath();
  } catch {
    return '(none: Playwright does not know its browser path)';
  }
}

/**
 * The first Chromium that exists. An env variable that names a missing file is an error rather
 * than a silent fall-through: whoever set it meant that browser.
 */
export function findChromium(env: NodeJS.ProcessEnv = process.env, system: readonly string[] = SYSTEM_CHROMIUMS): string {
  const tried: string[] = [];
  for (const c of candidates(env, system)) {
    if (existsSync(c.path)) return c.path;
    if (c.from.startsWith('env ')) {
      throw new Error(`${NO_CHROMIUM}: ${c.from} names ${c.path}, which does not exist.`);
    }
    tried.push(`  ${c.path}  (${c.from})`);
  }
  throw new Error(
    `${NO_CHROMIUM}. Tried:\n${tried.join('\n')}\n` +
      'Set LOUPE_CHROMIUM=/path/to/chromium, run `npx playwright install chromium`, ' +
      'or install one (Debian: apt-get install chromium).',
  );
}
