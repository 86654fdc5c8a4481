/**
 * A worker reads a stored conversation's "always" grants from Redis at every task's start,
 * not only while a run holds the conversation's claim. It used to read them only then, and
 * otherwise use what it remembered: a conversation deleted (or expired) and started again
 * under its id had its background task, started on a busy worker after its run ended, run a
 * command only the old conversation had allowed. The same read gives such a task the grants
 * its conversation keeps. (A run without a sessionId keeps its tasks' grants in the worker's
 * memory: worker-grant-claim.test.ts.)
 *
 * The worker runs one task at a time and is kept busy by another conversation's background
 * task, so the new conversation's background task starts once its run has ended.
 */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HarnessEngine } from '../../src/engine/harness-engine.js';
import type { ApprovalDecision, ApprovalRequest } from '../../src/permission/approval.js';
import { testAgent, type Turn } from '../support/agent-turns.js';
import type { FakeReply } from '../support/fake-openai/types.js';
import { taskArgs } from '../support/delegation-script.js';
import { HAS_REDIS } from './redis-server.js';
import { type ScaleKit, useScaleKits, waitFor } from './scale-kit.js';

const touch = { toolCalls: [{ name: 'bash', arguments: { command: 'touch granted.txt' } }] };
const background = (agent: string, prompt: string): FakeReply => ({ toolCalls: [{ name: 'task', arguments: { ...taskArgs(agent, prompt), background: true } }] });

/** A kit whose worker runs one task at a time, an engine answering `answers` in turn, and what it was asked. */
async function setUp(scale: ReturnType<typeof useScaleKits>, answers: ApprovalDecision['decision'][]) {
  const k = await scale.kit();
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  k.fixture.route({
    main: (turn: Turn) => {
      if (turn.step > 1) return { text: 'done' };
      if (turn.prompt.includes('in the main run')) return touch;
      if (turn.prompt.includes('on the worker')) return { toolCalls: [{ name: 'task', arguments: taskArgs('explorer', 'touch it') }] };
      if (turn.prompt.includes('occupy')) return background('holder', 'hold');
      return background('explorer', 'touch it later');
    },
    explorer: (turn) => (turn.step === 1 ? touch : { text: `ok ${turn.toolResults.join('|')}` }),
    holder: async () => {
      await held;
      return { text: 'held' };
    },
  });
  await k.worker({ concurrency: 1 });
  const asked: ApprovalRequest[] = [];
  const e = await k.engine({ distributeTasks: true, approve: (r) => (asked.push(r), { decision: answers[asked.length - 1] ?? 'reject' }) }, [testAgent('explorer'), testAgent('holder')]);
  return { k, e, asked, release, file: join(k.fixture.workspace.dir, 'granted.txt') };
}

/** Runs `conv`'s turn starting a background `touch`, whose task starts on the worker once the run ended; resolves when it settled. */
async function backgroundTouchAfterRun(k: ScaleKit, e: HarnessEngine, release: () => void): Promise<void> {
  const { parts } = await k.backend();
  await e.call('occupy the worker', { sessionId: 'other' });
  await e.call('start it in the background', { sessionId: 'conv' });
  await waitFor(async () => (await parts.redis.exists(parts.keys.claim('conv'))) === 0); // the run has ended
  release();
  const settled = () => [...e.tasks.list('conv'), ...e.tasks.list('other')].every((t) => t.state !== 'running' && t.state !== 'queued');
  await waitFor(settled, 20_000);
  expect(e.tasks.list('conv').filter((t) => t.background).map((t) => t.state)).toEqual(['done']);
}

/** Plays the conversation's time to live passing: each of its keys expires, no delete. */
async function expire(k: ScaleKit, sessionId: string): Promise<void> {
  const { parts } = await k.backend();
  const { redis, keys } = parts;
  const all = [keys.session(sessionId), keys.archive(sessionId), keys.archived(sessionId), keys.grants(sessionId), keys.sessionSummary(sessionId), keys.sessionTasks(sessionId)];
  for (const key of all) await redis.pexpire(key, 1);
  await waitFor(async () => (await redis.exists(...all)) === 0);
}

describe.skipIf(!HAS_REDIS)("a worker reads a stored conversation's grants at every task's start", () => {
  const scale = useScaleKits();

  for (const [gone, end] of [
    ['deleted', (_k: ScaleKit, e: HarnessEngine) => e.sessions.delete!('conv')],
    ['expired', (k: ScaleKit) => expire(k, 'conv')],
  ] as const) {
    it(`a conversation ${gone}, then started again under its id: its background task after the run does not get the old grant`, async () => {
      const { k, e, asked, release, file } = await setUp(scale, ['always']);
      await e.call('run it on the worker', { sessionId: 'conv' });
      expect(asked).toHaveLength(1);
      expect(existsSync(file)).toBe(true); // granted "always", in the worker's memory too
      rmSync(file);
      await end(k, e);
      expect(await e.sessions.loadGrants!('conv')).toEqual([]);
      await backgroundTouchAfterRun(k, e, release);
      // A background task cannot ask: without a grant its command is rejected.
      expect(asked).toHaveLength(1);
      expect(existsSync(file)).toBe(false);
      expect(e.tasks.list('conv').find((t) => t.background)?.result).toContain('rejected');
    }, 40_000);
  }

  it('a grant the conversation keeps holds for its background task started on the worker after its run', async () => {
    const { k, e, asked, release, file } = await setUp(scale, ['always']);
    await e.call('touch it in the main run', { sessionId: 'conv' }); // granted on the engine, saved under conv
    expect(asked).toHaveLength(1);
    rmSync(file);
    await backgroundTouchAfterRun(k, e, release);
    expect(asked).toHaveLength(1);
    expect(existsSync(file)).toBe(true);
  }, 40_000);
});
