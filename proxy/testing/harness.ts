/**
 * For the proxy's integration tests: Loupe started in this process with a stand-in UI folder,
 * each with a wire client attached, all stopped together after each test.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch, type LaunchOptions, type RunningLoupe } from '../launch.ts';
import { WireTestClient } from './client.ts';

/** A folder with a one-line index.html: these tests need the server, not the real UI build. */
export function testUiRoot(): string {
  const root = mkdtempSync(join(tmpdir(), 'loupe-ui-'));
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>Loupe test page</title>');
  return root;
}

export class LoupeHarness {
  private readonly running: RunningLoupe[] = [];
  private readonly clients: WireTestClient[] = [];
  readonly uiRoot = testUiRoot();

  /** Starts Loupe on a free port and opens one wire client to it. */
  async start(options: Omit<LaunchOptions, 'port' | 'uiRoot'> = {}): Promise<{ loupe: RunningLoupe; client: WireTestClient }> {
    const loupe = await launch({ ...options, port: 0, uiRoot: this.uiRoot });
    this.running.push(loupe);
    return { loupe, client: await this.open(loupe) };
  }

  /** Another tab on the same Loupe. */
  async open(loupe: RunningLoupe): Promise<WireTestClient> {
    const client = await WireTestClient.open(`ws://127.0.0.1:${loupe.port}/ws?token=${loupe.token}`);
    this.clients.push(client);
    return client;
  }

  async closeAll(): Promise<void> {
    for (const client of this.clients.splice(0)) client.close();
    await Promise.all(this.running.splice(0).map((loupe) => loupe.close()));
  }
}
