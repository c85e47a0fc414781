/**
 * `mcp-loupe --tap -- <command>` (issue 13). TO BE WRITTEN (helper: tap).
 */
import type { CliOptions, ResolvedTarget } from './cli-args.ts';

export async function runTap(options: CliOptions, target: ResolvedTarget): Promise<number> {
  void options;
  void target;
  return 2;
}
