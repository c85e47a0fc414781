/**
 * Start-up loads nothing of OpenTelemetry (issue 28; bench/cold-start.mjs measures start-up): only
 * the exporter and the receiver's decoder import the OpenTelemetry packages, and nothing outside
 * proxy/otel/ reaches into it but by a dynamic `import()` or a type-only import (erased at build).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SOURCES = ['proxy', 'lib', 'app', 'components'];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : files(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

/** The module specifiers of a file's imports that stay at run time (not `import type`, not `import()`). */
function runtimeImports(text: string): string[] {
  return [...text.matchAll(/^\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm)].map((m) => m[1]).filter((spec, i, all) => all.indexOf(spec) === i);
}

describe('OpenTelemetry is loaded only when tracing is on', () => {
  const all = SOURCES.flatMap((dir) => files(join(ROOT, dir))).map((path) => ({ file: relative(ROOT, path), text: readFileSync(path, 'utf8') }));

  it('imports the OpenTelemetry packages statically only in the receiver’s decoder (the exporter loads them with import())', () => {
    const importers = all.filter(({ text }) => runtimeImports(text).some((spec) => spec.startsWith('@opentelemetry/'))).map(({ file }) => file).sort();
    expect(importers).toEqual(['proxy/otel/otlp-protobuf.ts']);
  });

  it('reaches proxy/otel/ from outside only by import() or types', () => {
    const into = (file: string, spec: string) => spec.startsWith('.') && relative(ROOT, join(ROOT, dirname(file), spec)).startsWith('proxy/otel/');
    const reaching = all.filter(({ file, text }) => !file.startsWith('proxy/otel/') && runtimeImports(text).some((spec) => into(file, spec))).map(({ file }) => file);
    expect(reaching).toEqual([]);
  });
});
