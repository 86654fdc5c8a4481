import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

/**
 * Each top-level part of `src/` and its layer: a part imports only from lower layers.
 * Events at the bottom; the engine, the HTTP routes and the browser client, then the web
 * demo (built on both), then the CLI (whose `serve` serves the demo) at the top.
 */
const LAYERS: Readonly<Record<string, number>> = {
  events: 0,
  errors: 0,
  // Cuts of text that never split a character (src/text/whole-chars.ts).
  text: 0,
  // Spans cut what the model names with text's cuts.
  telemetry: 0.5,
  // The one validator (ajv, its regexes on RE2) every schema goes through: tool arguments, options, rules, definitions.
  validation: 0,
  model: 1,
  permission: 1,
  // Over the permission rules: the terminal approval adapter asks about their ApprovalRequest.
  adapters: 1.5,
  tools: 2,
  session: 2,
  demo: 2,
  agent: 3,
  subagent: 3,
  mcp: 3,
  delegation: 4,
  runs: 4,
  engine: 5,
  // Above the engine, whose HarnessBackend interface it implements and whose tree a worker builds.
  backend: 6,
  http: 6,
  client: 6,
  // The protocol adapters (AG-UI, UI message stream, A2A): over the engine and the HTTP routes' shared pieces; `serve` (web) mounts them.
  protocols: 6.5,
  web: 7,
  cli: 8,
  index: 9,
};

/** Every `.ts` file under `src/` with the files it imports (relative imports only). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const entry of readdirSync(SRC, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const file = join(entry.parentPath, entry.name);
    const source = readFileSync(file, 'utf8');
    const imports = [...source.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((m) =>
      resolve(dirname(file), m[1]!.replace(/\.js$/, '.ts')),
    );
    graph.set(file, imports);
  }
  return graph;
}

const part = (file: string): string => relative(SRC, file).split('/')[0]!.replace(/\.ts$/, '');
const name = (file: string): string => relative(SRC, file);

describe('the architecture of src/', () => {
  const graph = importGraph();

  it('finds the source files and their imports', () => {
    expect(graph.size).toBeGreaterThan(50);
    expect(graph.get(join(SRC, 'index.ts'))!.length).toBeGreaterThan(5);
  });

  it('every part has a layer, and imports only from lower layers', () => {
    const parts = new Set([...graph.keys()].map(part));
    expect([...parts].filter((p) => LAYERS[p] === undefined)).toEqual([]);
    const upward: string[] = [];
    for (const [file, imports] of graph) {
      for (const target of imports) {
        const [from, to] = [part(file), part(target)];
        if (from !== to && LAYERS[to]! >= LAYERS[from]!) upward.push(`${name(file)} -> ${name(target)}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it('has no import cycle between files', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const path: string[] = [];
    const visit = (file: string): void => {
      state.set(file, 'open');
      path.push(file);
      for (const target of graph.get(file) ?? []) {
        if (state.get(target) === 'open') cycles.push(path.slice(path.indexOf(target)).concat(target).map(name).join(' -> '));
        else if (!state.has(target)) visit(target);
      }
      path.pop();
      state.set(file, 'done');
    };
    for (const file of graph.keys()) if (!state.has(file)) visit(file);
    expect(cycles).toEqual([]);
  });

  it('keeps files small: none over 400 lines', () => {
    const long = [...graph.keys()].filter((file) => readFileSync(file, 'utf8').split('\n').length > 400).map(name);
    expect(long).toEqual([]);
  });
});
