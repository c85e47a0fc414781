/** The rules in force in `mcp-loupe --tap` (tap.ts). */
import type { Rule } from '../../../lib/model/rules.ts';
import type { RuleSet } from '../../pipeline/context.ts';

/** The rules in force: the tap's own `--rules` first, then the attached Loupe's. */
export class TapRules {
  private version = 1;
  private remote: readonly Rule[] = [];
  remoteServer?: string;

  constructor(private readonly local: readonly Rule[]) {}

  set = (): RuleSet => ({ version: this.version, rules: this.remote.length === 0 ? this.local : [...this.local, ...this.remote] });

  get any(): boolean {
    return this.local.length > 0 || this.remote.length > 0;
  }

  setRemote(rules: readonly Rule[], server?: string): void {
    this.remote = rules;
    this.remoteServer = server;
    this.version++;
  }
}
