import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_NAME_PATTERN } from '../../src/subagent/agent-definition.js';
import { discoverAgents } from '../../src/subagent/discover-agents.js';
import { parseAgentMarkdown } from '../../src/subagent/parse-agent-markdown.js';
import { mutateAll, mutation, position } from '../support/text-mutations.js';
import { makeWorkspace, type TestWorkspace } from '../support/tool-context.js';

// Discovery must survive whatever is in a definition folder: each file ends up either as a
// definition or as a diagnostic naming it, and discovery itself never throws.

const BUILTIN_DIR = new URL('../../src/subagent/builtin/', import.meta.url);

/** Valid definitions to start from: the built-ins, and one using every field. */
const SEEDS: readonly string[] = [
  ...readdirSync(BUILTIN_DIR).filter((f) => f.endsWith('.md')).map((f) => readFileSync(new URL(f, BUILTIN_DIR), 'utf8')),
  [
    '---',
    'name: reviewer',
    'description: Reviews a change for bugs. Read-only.',
    'tools: [read, grep, glob]',
    'disallowedTools: bash, write',
    'model: fast',
    'maxSteps: 12',
    'hidden: false',
    'enabled: true',
    'permissionRules:',
    '  - { tool: bash, action: deny }',
    '  - { tool: read, action: ask, pattern: "**/.env", priority: 3 }',
    'x_team: platform',
    '---',
    'You are a code reviewer.',
    '',
  ].join('\n'),
];

/** One file of a run: which seed, its mutations, and raw bytes spliced in (or not). */
const damagedFile = fc.record({
  seed: fc.nat({ max: SEEDS.length - 1 }),
  mutations: fc.array(mutation, { minLength: 0, maxLength: 4 }),
  bytes: fc.option(fc.record({ at: position, data: fc.uint8Array({ minLength: 1, maxLength: 6 }) }), { nil: undefined }),
  nested: fc.boolean(),
});

type DamagedFile = typeof damagedFile extends fc.Arbitrary<infer T> ? T : never;

function contentOf(file: DamagedFile): Buffer {
  const text = Buffer.from(mutateAll(SEEDS[file.seed]!, file.mutations), 'utf8');
  if (!file.bytes) return text;
  const at = Math.floor(file.bytes.at * (text.length + 1));
  return Buffer.concat([text.subarray(0, at), file.bytes.data, text.subarray(at)]);
}

let root: TestWorkspace;
beforeAll(async () => {
  root = await makeWorkspace('rxharness-fuzz-defs-');
});
afterAll(() => root.cleanup());

describe('discoverAgents on randomly damaged definition files', () => {
  it('starts from seeds that are valid', () => {
    for (const seed of SEEDS) expect(() => parseAgentMarkdown(seed, { source: 'dir' })).not.toThrow();
  });

  it('never throws; every file is exactly one definition or is not loaded, with its diagnostics (file and reason)', async () => {
    let run = 0;
    const seen = { definitions: 0, diagnostics: 0 };
    await fc.assert(
      fc.asyncProperty(fc.array(damagedFile, { minLength: 1, maxLength: 4 }), async (files) => {
        const dir = join(root.dir, `run-${run++}`);
        const paths: string[] = [];
        for (const [i, file] of files.entries()) {
          const folder = file.nested ? join(dir, 'nested') : dir;
          await mkdir(folder, { recursive: true });
          const path = join(folder, `agent-${i}.md`);
          await writeFile(path, contentOf(file));
          paths.push(path);
        }

        const { definitions, diagnostics } = await discoverAgents([{ path: dir, source: 'dir' }]);

        for (const d of diagnostics) {
          expect(typeof d.file).toBe('string');
          expect(typeof d.reason).toBe('string');
          expect(d.reason.trim()).not.toBe('');
        }
        // A file not loaded reports why and, after that, its other warnings (issue 27.8).
        const diagnosed = new Set(diagnostics.map((d) => d.file));
        for (const path of paths) {
          const outcomes = definitions.filter((d) => d.file === path).length + (diagnosed.has(path) ? 1 : 0);
          expect(outcomes, `outcomes for ${path}`).toBe(1);
        }
        expect(definitions.length + diagnosed.size).toBe(paths.length);
        for (const d of definitions) {
          expect(d.name).toMatch(AGENT_NAME_PATTERN);
          expect(d.description.trim()).not.toBe('');
          expect(d.systemPrompt.trim()).not.toBe('');
          expect(Object.isFrozen(d)).toBe(true);
        }
        seen.definitions += definitions.length;
        seen.diagnostics += diagnostics.length;
      }),
      { seed: 7_2024, numRuns: 120 },
    );
    // The mutations reached both outcomes, so the property was not checked on one side only.
    expect(seen.definitions).toBeGreaterThan(20);
    expect(seen.diagnostics).toBeGreaterThan(20);
  });
});
