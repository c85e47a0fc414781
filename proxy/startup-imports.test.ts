/**
 * What a plain launch loads (issue 23: start-up loads only what the first screen needs). The
 * static imports reachable from the command line and the hub (type-only imports and `import()`
 * left out, as at run time) must not reach the modules that build zod schemas the first screen
 * never uses: every wire envelope's, every trace event's, the rules', OAuth's. Each of those cost
 * the idle proxy heap (about 1 MB in all, measured after a GC), and a launch their building.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');

/** Relative runtime imports of one module: `import … from`, `export … from`, side-effect imports; not `import type`. */
function runtimeImports(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const match of source.matchAll(/^(?:import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?'(\.[^']+)';/gm)) {
    if (match[1]) continue;
    out.push(resolve(dirname(file), match[2]));
  }
  return out;
}

function reachable(roots: string[]): Set<string> {
  const seen = new Set<string>();
  const stack = roots.map((r) => join(ROOT, r));
  while (stack.length > 0) {
    const file = stack.pop()!;
    if (seen.has(file) || !file.endsWith('.ts')) continue;
    seen.add(file);
    stack.push(...runtimeImports(file));
  }
  return new Set([...seen].map((f) => relative(ROOT, f)));
}

describe('a plain launch', () => {
  const loaded = reachable(['proxy/cli.ts', 'proxy/launch.ts', 'proxy/faces/web/hub.ts', 'proxy/pipeline/trace-recorder.ts', 'proxy/session/session.ts']);

  it('reaches the hub and a session (the graph is read)', () => {
    expect(loaded.has('proxy/faces/web/hub.ts')).toBe(true);
    expect(loaded.has('proxy/session/session.ts')).toBe(true);
    expect(loaded.has('proxy/pipeline/spec-validator.ts')).toBe(true);
    expect(loaded.size).toBeGreaterThan(60);
  });

  it('does not build the wire, trace event, rules or OAuth schemas', () => {
    const heavy = ['lib/wire/wire.ts', 'lib/wire/base.ts', 'lib/wire/events.ts', 'lib/wire/oauth.ts', 'lib/otel/schema.ts', 'lib/model/rules.ts', 'lib/trace/read-trace.ts'];
    expect(heavy.filter((file) => loaded.has(file))).toEqual([]);
  });
});
