import fc from 'fast-check';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { ScriptedModel, type ScriptedToolCall } from '../../src/model/scripted-model.js';
import { PermissionPolicy } from '../../src/permission/permission-policy.js';
import { createGlobTool } from '../../src/tools/builtin/glob.js';
import { createGrepTool } from '../../src/tools/builtin/grep.js';
import { createListTool } from '../../src/tools/builtin/list.js';
import { collect, own } from '../support/collect-events.js';
import { isInside, oracleRealPath } from '../support/confinement-sandbox.js';

// Search confinement over random symbolic-link layouts: links to folders and files inside
// and outside the workspace, chains, dangling links, `..`, /etc, some created while the run
// goes on, and sometimes a deny rule on a folder. Whatever grep, glob and list are asked,
// every file they return or read is a real file of the workspace, reached without a link,
// that no rule denies; and glob `**/*` still finds every such file.

const root = realpathSync(mkdtempSync(join(tmpdir(), 'rxharness-search-prop-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The workspace's own files; each holds its own path, so a leak of a denied one shows. */
const FILES = ['top.txt', 'a/x.txt', 'a/b/y.txt', 'c/z.md'];
/** Where links may be planted, before the run or during it. */
const SPOTS = ['l0', 'l1', 'a/l2', 'a/b/l3', 'c/l4'];
const TARGETS = ['out', 'out/deep', 'out/leak.txt', 'ws/a', 'ws/a/b', 'ws/top.txt', 'up', '/etc', 'chain', 'dangling', 'self'] as const;
type Target = (typeof TARGETS)[number];
type Link = readonly [spot: string, target: Target, absolute: boolean];

const link = fc.tuple(fc.constantFrom(...SPOTS), fc.constantFrom(...TARGETS), fc.boolean());
const spotName = fc.constantFrom(...SPOTS);
const glob = spotName.chain((spot) =>
  fc.constantFrom(`${spot}/*`, `${spot}/**`, `${spot}/*.txt`, `${spot}/deep/*`, `${spot}/passwd`, `{${spot},a}/*`, '**/*', '*', '*/*', '**/leak*', 'a/*'),
);
const folder = spotName.chain((spot) => fc.constantFrom('.', 'a', 'a/b', 'c', spot, `${spot}/deep`, `${spot}/b`));
const search = fc.oneof(
  fc.record({ name: fc.constant('grep'), args: fc.record({ pattern: fc.constant('needle'), include: glob, path: folder }, { requiredKeys: ['pattern'] }) }),
  fc.record({ name: fc.constant('glob'), args: fc.record({ pattern: glob, path: folder }, { requiredKeys: ['pattern'] }) }),
  fc.record({ name: fc.constant('list'), args: fc.record({ path: folder }, { requiredKeys: [] }) }),
);
const scenario = fc.record({
  before: fc.uniqueArray(link, { maxLength: 4, selector: ([spot]) => spot }),
  during: fc.uniqueArray(link, { maxLength: 3, selector: ([spot]) => spot }),
  denied: fc.constantFrom(undefined, 'a', 'a/b', 'c'),
  searches: fc.array(search, { minLength: 2, maxLength: 4 }),
});

/** Builds a fresh sandbox: `<dir>/ws` with {@link FILES}, `<dir>/out` with sentinel files. */
function layout(): { dir: string; ws: string } {
  const dir = mkdtempSync(join(root, 'case-'));
  const ws = join(dir, 'ws');
  for (const file of FILES) write(join(ws, file), `INSIDE needle ${file}\n`);
  write(join(dir, 'out/leak.txt'), 'SENTINEL needle\n');
  write(join(dir, 'out/deep/leak2.txt'), 'SENTINEL needle deep\n');
  return { dir, ws };
}

function write(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

/** Plants links that are not there yet (a spot whose folder is missing or taken is skipped). */
function plant(dir: string, ws: string, links: readonly Link[]): void {
  for (const [spot, target, absolute] of links) {
    const at = join(ws, spot);
    const to = target === 'up' ? '../..' : target === 'chain' ? join(ws, 'l0') : target === 'dangling' ? join(dir, 'out/gone') : target === 'self' ? '.' : target === '/etc' ? '/etc' : join(dir, target);
    try {
      symlinkSync(absolute || !to.startsWith('/') ? to : relative(dirname(at), to) || '.', at);
    } catch {
      // already there, or its folder is a link or missing: this layout simply lacks it
    }
  }
}

/** The workspace's regular files reached without a link, as workspace-relative paths. */
function realFiles(ws: string, under = ''): string[] {
  return readdirSync(join(ws, under), { withFileTypes: true }).flatMap((entry) => {
    const path = under === '' ? entry.name : `${under}/${entry.name}`;
    if (entry.isDirectory()) return realFiles(ws, path);
    return entry.isFile() ? [path] : [];
  });
}

/** Whether every part of `path` below `ws` is no link and the last is a regular file. */
function linkFreeFile(ws: string, path: string): boolean {
  const parts = path.split('/');
  return parts.every((_, i) => {
    const stats = lstatSync(join(ws, ...parts.slice(0, i + 1)), { throwIfNoEntry: false });
    return stats !== undefined && !stats.isSymbolicLink() && (i < parts.length - 1 || stats.isFile());
  });
}

/** The result lines of a search (its notes after a blank line left off). */
const lines = (text: string): string[] => text.split('\n\n(')[0]!.split('\n');

describe('grep, glob and list over random link layouts', () => {
  it('return and read only real, undenied workspace files, and glob still finds them all', async () => {
    const seen = { refused: 0, found: 0, empty: 0 };
    await fc.assert(
      fc.asyncProperty(scenario, async ({ before, during, denied, searches }) => {
        const { dir, ws } = layout();
        plant(dir, ws, before);
        const calls: ScriptedToolCall[] = [{ id: 'all', name: 'glob', args: { pattern: '**/*' } }, ...searches.map((s, i) => ({ id: `s${i}`, ...s }))];
        // One call per step; before the second step the links of `during` appear.
        const model = new ScriptedModel((_request, { index }) => {
          if (index === 1) plant(dir, ws, during);
          const call = calls[index];
          return call ? { toolCalls: [call] } : { text: 'done' };
        });
        const rules = denied === undefined ? [] : [{ tool: '*', action: 'deny' as const, pattern: `${denied}/**` }];
        const permissions = new PermissionPolicy({ rules });
        const agent = new ReActAgent({ model, tools: [createGrepTool(), createGlobTool(), createListTool()], workspace: ws, permissions, maxSteps: calls.length + 1 });
        const events: AgentEvent[] = await collect(agent.stream('search'));
        const ends = own(events, 'ToolCallEnd');
        const isDenied = (path: string): boolean => denied !== undefined && (path === denied || path.startsWith(`${denied}/`));

        expect(ends).toHaveLength(calls.length);
        for (const [i, end] of ends.entries()) {
          const call = calls[i]!;
          const where = `${call.name} ${JSON.stringify(call.args)} (before ${JSON.stringify(before)}, during ${JSON.stringify(during)}, denied ${denied})`;
          expect(end.text, where).not.toMatch(/SENTINEL|root:x:0/);
          if (end.error !== undefined) {
            if (/outside the workspace/.test(end.error)) {
              seen.refused += 1;
              const path = String((call.args as { path?: string }).path ?? '.');
              expect(isInside(ws, oracleRealPath(ws, path)), where).toBe(false);
            }
            continue;
          }
          if (/^(No files match|No matches for|\(.* is empty\))/.test(end.text)) {
            seen.empty += 1;
            continue;
          }
          seen.found += 1;
          expect(end.text, where).not.toContain('leak'); // the outside files' names (a refusal may name them)
          for (const line of lines(end.text)) {
            if (call.name === 'list') {
              const real = oracleRealPath(ws, String((call.args as { path?: string }).path ?? '.'));
              expect(isInside(ws, real), where).toBe(true);
              const name = line.replace(/@?\/?$/, '');
              expect(lstatSync(join(real, name), { throwIfNoEntry: false }), `${where}: ${line}`).toBeDefined();
              const rel = relative(ws, join(real, name));
              expect(isDenied(rel), `${where}: ${line}`).toBe(false);
              continue;
            }
            const path = call.name === 'grep' ? line.slice(0, line.indexOf(':')) : line;
            expect(linkFreeFile(ws, path), `${where}: ${line}`).toBe(true);
            expect(isDenied(path), `${where}: ${line}`).toBe(false);
            if (call.name === 'grep') expect(line, where).toContain(`INSIDE needle ${path}`);
          }
        }
        // Completeness: the first glob (before any link of `during`) finds every real, undenied file.
        const expected = realFiles(ws).filter((path) => !isDenied(path) && FILES.includes(path)).sort();
        expect(lines(ends[0]!.text), `before ${JSON.stringify(before)}, denied ${denied}`).toEqual(expected.length ? expected : ['No files match **/* in .']);
        rmSync(dir, { recursive: true, force: true });
      }),
      { seed: 4_242, numRuns: 100 },
    );
    // Every outcome was exercised: refusals, empty answers, and real findings.
    expect(seen.refused).toBeGreaterThan(3);
    expect(seen.empty).toBeGreaterThan(10);
    expect(seen.found).toBeGreaterThan(20);
  });
});
