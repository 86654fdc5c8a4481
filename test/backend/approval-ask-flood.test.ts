import type { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_WAITING_ASKS } from '../../src/backend/launcher-asks.js';
import type { HarnessEngine } from '../../src/engine/harness-engine.js';
import { testAgent } from '../support/agent-turns.js';
import { taskReply } from '../support/delegation-script.js';
import { HAS_REDIS } from './redis-server.js';
import { type ScaleKit, useScaleKits, waitFor } from './scale-kit.js';

/**
 * Anyone with access to the Redis can publish on a job's approvals channel, and every ask
 * read there becomes an approval waiting in the delegating run, whose record (every waiting
 * approval in it) went to every engine at each change: a flood of forged asks froze the
 * engine owning the run. An ask is taken only in the shape and sizes a worker sends, at most
 * `MAX_WAITING_ASKS` wait per run (here one job), and the rest are refused: the call they name is rejected.
 */
describe.skipIf(!HAS_REDIS)('asks relayed on a job approvals channel', () => {
  const scale = useScaleKits();
  const listeners: Redis[] = [];
  const warnings: string[] = [];
  const onWarning = (w: Error): void => void warnings.push(w.message);
  afterEach(() => {
    for (const l of listeners.splice(0)) l.disconnect();
    process.off('warning', onWarning);
    warnings.length = 0;
  });

  /** An engine whose run delegated a task nobody runs (no worker): its launcher listens on the job's approvals channel. */
  async function delegating(k: ScaleKit): Promise<{ engine: HarnessEngine; runId: string; cancel: () => void; redis: Redis; channel: string; replies: unknown[] }> {
    k.fixture.route({ main: (turn) => (turn.step > 1 ? { text: 'done' } : taskReply('explorer', 'look', 'explore')) });
    const engine = await k.engine({ distributeTasks: true }, [testAgent('explorer')]);
    const run = engine.start('delegate');
    const redis = (await k.backend()).parts.redis;
    const listener = redis.duplicate();
    listeners.push(listener);
    const replies: unknown[] = [];
    await listener.subscribe(`${k.prefix}:answers:liar`);
    listener.on('message', (_channel: string, text: string) => replies.push(JSON.parse(text)));
    const found = async (): Promise<string | undefined> => ((await redis.pubsub('CHANNELS', `${k.prefix}:approve:*`)) as string[])[0];
    await waitFor(async () => (await found()) !== undefined);
    return { engine, runId: run.runId, cancel: () => run.cancel(), redis, channel: (await found())!, replies };
  }

  const request = (i: number, change: Record<string, unknown> = {}): Record<string, unknown> => ({
    runId: 'r', sessionId: 's', approvalId: `approval_${i}`, callId: `c${i}`, toolName: 'bash', args: { command: 'ls' }, reason: 'x', agentName: 'explorer', ...change,
  });
  const ask = (id: string, req: Record<string, unknown>): string => JSON.stringify({ kind: 'ask', id, replyTo: 'liar', request: req });

  it(`past ${MAX_WAITING_ASKS} waiting in one job, are refused (the calls rejected) with a warning naming the task`, async () => {
    process.on('warning', onWarning);
    const k = await scale.kit();
    const d = await delegating(k);
    const over = 36;
    const pipe = d.redis.pipeline();
    for (let i = 0; i < MAX_WAITING_ASKS + over; i++) pipe.publish(d.channel, ask(`f${i}`, request(i)));
    await pipe.exec();
    await waitFor(() => d.replies.length === over && d.engine.runs.pendingApprovals(d.runId).length === MAX_WAITING_ASKS);
    // The first ones wait; each one past the bound is answered at once, rejected.
    expect(d.engine.runs.pendingApprovals(d.runId).map((p) => p.approvalId)).toEqual(Array.from({ length: MAX_WAITING_ASKS }, (_, i) => `approval_${i}`));
    expect(d.replies.map((r) => (r as { id: string }).id)).toEqual(Array.from({ length: over }, (_, i) => `f${MAX_WAITING_ASKS + i}`));
    expect(d.replies.every((r) => (r as { decision: { decision: string } }).decision.decision === 'reject')).toBe(true);
    // One warning for the flood (the rest counted), naming the job's task.
    const said = warnings.filter((w) => w.includes('approvals channel of task'));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain(`${MAX_WAITING_ASKS} approvals waiting`);
    // Once one is answered, there is room for another.
    expect(d.engine.runs.answer(d.runId, 'approval_0', { decision: 'approve' })).toBe(true);
    await waitFor(() => d.replies.length === over + 1);
    await d.redis.publish(d.channel, ask('later', request(1000)));
    await waitFor(() => d.engine.runs.pendingApprovals(d.runId).some((p) => p.approvalId === 'approval_1000'));
    expect(d.replies).toHaveLength(over + 1);
    d.cancel();
  });

  it('of a shape or size no worker sends, are refused, never filed in the run', async () => {
    const k = await scale.kit();
    const d = await delegating(k);
    const bad: [string, Record<string, unknown>][] = [
      ['long-id', request(1, { approvalId: `approval_${'x'.repeat(300)}` })],
      ['spaced-id', request(2, { approvalId: 'approval 2' })],
      ['long-tool', request(3, { toolName: 'b'.repeat(10_000) })],
      ['long-agent', request(4, { agentName: 'e'.repeat(10_000) })],
      ['long-call', request(5, { callId: 'c'.repeat(10_000) })],
      ['long-task', request(6, { taskId: 't'.repeat(10_000) })],
      ['long-reason', request(7, { reason: 'r'.repeat(100_000) })],
      ['no-request', 'not an object' as unknown as Record<string, unknown>],
    ];
    for (const [id, req] of bad) await d.redis.publish(d.channel, ask(id, req));
    await d.redis.publish(d.channel, ask('fine', request(8)));
    await waitFor(() => d.replies.length === bad.length && d.engine.runs.pendingApprovals(d.runId).length === 1);
    expect(d.engine.runs.pendingApprovals(d.runId).map((p) => p.approvalId)).toEqual(['approval_8']);
    expect(d.replies.map((r) => (r as { id: string }).id)).toEqual(bad.map(([id]) => id));
    for (const r of d.replies) expect((r as { decision: { decision: string; comment: string } }).decision).toMatchObject({ decision: 'reject', comment: expect.stringMatching(/refused: .*\(fail-closed\)$/) });
    d.cancel();
  });

  it('starting and stopping to wait in one burst, publish the run record once each way, its end at once', async () => {
    const k = await scale.kit();
    const d = await delegating(k);
    const puts: { state: string; pending: number }[] = [];
    const runs = d.redis.duplicate();
    listeners.push(runs);
    await runs.subscribe(`${k.prefix}:runs-events`);
    runs.on('message', (_channel: string, text: string) => {
      const m = JSON.parse(text) as { op: string; record?: { info: { runId: string; state: string }; pending: unknown[] } };
      if (m.op === 'put' && m.record?.info.runId === d.runId) puts.push({ state: m.record.info.state, pending: m.record.pending.length });
    });
    const n = 50;
    const pipe = d.redis.pipeline();
    for (let i = 0; i < n; i++) pipe.publish(d.channel, ask(`f${i}`, request(i)));
    await pipe.exec();
    await waitFor(() => puts.some((p) => p.pending === n));
    // Each change of the burst republished the whole record: 50 records of up to 50 approvals.
    expect(puts.length).toBeLessThan(n / 5);
    puts.length = 0;
    d.cancel(); // all 50 stop waiting, then the run ends
    await waitFor(() => puts.some((p) => p.state === 'cancelled'));
    // Room for a batched publish left behind to show (it would go a turn after the cancel's).
    await new Promise((resolve) => setTimeout(resolve, 200));
    // Its final state at once, and nothing after it: not 50 records of fewer and fewer approvals.
    expect(puts).toEqual([{ state: 'cancelled', pending: 0 }]);
  });
});
