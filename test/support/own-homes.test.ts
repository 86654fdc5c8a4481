/**
 * The engines and stores the test factories make have a home of their own: whoever runs the
 * tests may have agents (a `mode: primary` one changes every run's main agent), broken
 * definitions and a grant key in their `~/.rxharness`, and no test may read them or write
 * there. HOME points, for this file, at such a planted home. And no test makes a
 * `FileSessionStore` on that home: each is given a `home` or a `grantKey` of its own.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { HarnessEngine } from '../../src/engine/harness-engine.js';
import { taskSessionPerTest } from '../engine/support/task-session-setup.js';
import { makeSandbox, sandboxEngine } from './approval-kit.js';
import { startDelegationFixture } from './delegation-fixture.js';
import { offlineEngine } from './offline-engine.js';

let plantedHome = '';

beforeAll(async () => {
  plantedHome = await realpath(await mkdtemp(join(tmpdir(), 'rxharness-planted-home-')));
  const agents = join(plantedHome, '.rxharness', 'agents');
  await mkdir(agents, { recursive: true });
  await writeFile(join(agents, 'planted.md'), '---\nname: planted\ndescription: A developer agent.\nmode: primary\n---\nAnswer "planted".\n');
  await writeFile(join(agents, 'broken.md'), '---\nname: broken\n---\nno description\n');
  vi.stubEnv('HOME', plantedHome);
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await rm(plantedHome, { recursive: true, force: true });
});

/** Expects `engine` to know nothing of the planted home: no agent, no primary, no diagnostic of its files. */
function expectNothingPlanted(engine: HarnessEngine): void {
  expect(engine.agents.get('planted')).toBeUndefined();
  expect(engine.agents.primary()).toBeUndefined();
  expect(engine.agents.diagnostics().filter((d) => d.file.startsWith(plantedHome))).toEqual([]);
}

describe('test factories under a HOME with planted definitions', () => {
  it('HOME is the planted home here (what the engine would read without a home of its own)', () => {
    expect(homedir()).toBe(plantedHome);
  });

  it('offlineEngine lists none of them', async () => {
    const { engine, cleanup } = await offlineEngine({ main: () => ({ text: 'done' }) }, []);
    try {
      expectNothingPlanted(engine);
    } finally {
      await engine.close();
      await cleanup();
    }
  });

  it('sandboxEngine lists none of them', async () => {
    const sandbox = await makeSandbox();
    const { engine } = await sandboxEngine(sandbox, { main: () => ({ text: 'done' }) });
    try {
      expectNothingPlanted(engine);
    } finally {
      await engine.close();
      await sandbox.cleanup();
    }
  });

  it("the delegation fixture's engine lists none of them", async () => {
    const fixture = await startDelegationFixture({ main: () => ({ text: 'done' }) });
    const engine = fixture.engine();
    try {
      await engine.call('hi');
      expectNothingPlanted(engine);
    } finally {
      await engine.close();
      await fixture.close();
    }
  });
});

describe('a task session restarted over a FileSessionStore (taskSessionPerTest)', () => {
  const scene = taskSessionPerTest();

  it("keeps the store's grant key in the fixture's home: nothing is written to HOME", async () => {
    const { fixture, engine } = await scene.restarted();
    expectNothingPlanted(engine);
    expect(existsSync(join(fixture.home, '.rxharness', 'grant.key'))).toBe(true);
    expect(existsSync(join(plantedHome, '.rxharness', 'grant.key'))).toBe(false);
  });
});

const TEST_ROOT = join(import.meta.dirname, '..');

/**
 * `test/<file>:<line>` of each `new FileSessionStore(...)` under test/ given neither a `home`
 * nor a `grantKey` (in its options, or in the object a `const` of the file names): that store
 * reads, and makes, the grant key and lifetimes of the real `~/.rxharness`. A file stubbing
 * HOME is exempt: its HOME is a folder of its own (as this file's is).
 */
function storesOnTheRealHome(): string[] {
  const found: string[] = [];
  for (const name of readdirSync(TEST_ROOT, { recursive: true, encoding: 'utf8' })) {
    if (!name.endsWith('.ts')) continue;
    const text = readFileSync(join(TEST_ROOT, name), 'utf8');
    if (!text.includes('FileSessionStore(') || text.includes("vi.stubEnv('HOME'")) continue;
    const source = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true);
    const objects = new Map<string, ts.ObjectLiteralExpression>();
    const stores: ts.NewExpression[] = [];
    const visit = (node: ts.Node): void => {
      if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer && ts.isObjectLiteralExpression(node.initializer)) objects.set(node.name.text, node.initializer);
      if (ts.isNewExpression(node) && node.expression.getText() === 'FileSessionStore') stores.push(node);
      ts.forEachChild(node, visit);
    };
    visit(source);
    for (const store of stores) {
      const options = store.arguments?.[1];
      const literal = options && (ts.isIdentifier(options) ? objects.get(options.text) : ts.isObjectLiteralExpression(options) ? options : undefined);
      const keys = literal?.properties.map((p) => p.name?.getText()) ?? [];
      if (!keys.includes('home') && !keys.includes('grantKey')) found.push(`test/${name}:${source.getLineAndCharacterOfPosition(store.getStart()).line + 1}`);
    }
  }
  return found;
}

describe('the FileSessionStores the tests make', () => {
  it('each has a home or a grantKey of its own: none reads the real ~/.rxharness', () => {
    expect(storesOnTheRealHome()).toEqual([]);
  });
});
