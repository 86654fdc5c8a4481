/**
 * The engines and stores the test factories make have a home of their own: whoever runs the
 * tests may have agents (a `mode: primary` one changes every run's main agent), broken
 * definitions and a grant key in their `~/.rxharness`, and no test may read them or write
 * there. HOME points, for this file, at such a planted home.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
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
