import type { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_WAITING_ASKS } from '../../src/backend/launcher-asks.js';
import { MAX_ASK_ARGS_BYTES } from '../../src/backend/relayed-ask.js';
import type { HarnessEngine } from '../../src/engine/harness-engine.js';
import { testAgent } from '../support/agent-turns.js';
import { multitaskReply } from '../support/delegation-script.js';
import { HAS_REDIS } from './redis-server.js';
import { type ScaleKit, useScaleKits, waitFor } from './scale-kit.js';

/**
 * Asks forged on the approvals channels of a run's jobs, as anyone with access to the Redis
 * could publish them: the run's waiting asks are bounded as a whole (not per job), each
 * ask's `args` in bytes, and an ask may not name a task the engine knows runs elsewhere.
 */
describe.skipIf(!HAS_REDIS)('asks forged on the approvals channels of a run with two jobs', () => {
  const scale = useScaleKits();
  const listeners: Redis[] = [];
  afterEach(() => {
    for (const l of listeners.splice(0)) l.disconnect();
  });

  interface Delegating {
    readonly engine: HarnessEngine;
    readonly runId: string;
    readonly cancel: () => void;
    readonly redis: Redis;
    /** The two jobs' approvals channels, each with the task its job runs. */
    readonly jobs: readonly { readonly channel: string; readonly taskId: string }[];
    readonly replies: { id: string; decision: { decision: string; comment?: string } }[];
  }

  /** An engine whose run delegated two tasks nobody runs (no worker): its launcher listens on both jobs' approvals channels. */
  async function delegating(k: ScaleKit): Promise<Delegating> {
    k.fixture.route({ main: (turn) => (turn.step > 1 ? { text: 'done' } : multitaskReply([[1, 'explorer', 'a', 'task a'], [2, 'explorer', 'b', 'task b']])) });
    const engine = await k.engine({ distributeTasks: true }, [testAgent('explorer')]);
    const run = engine.start('delegate');
    const redis = (await k.backend()).parts.redis;
    const listener = redis.duplicate();
    listeners.push(listener);
    const replies: Delegating['replies'] = [];
    await listener.subscribe(`${k.prefix}:answers:liar`);
    listener.on('message', (_channel: string, text: string) => replies.push(JSON.parse(text) as Delegating['replies'][number]));
    const channels = async (): Promise<string[]> => (await redis.pubsub('CHANNELS', `${k.prefix}:approve:*`)) as string[];
    await waitFor(async () => (await channels()).length === 2);
    // A job's id is its task's id and a suffix (`<taskId>.<8 hex>`).
    const jobs = (await channels()).map((channel) => ({ channel, taskId: channel.slice(`${k.prefix}:approve:`.length).replace(/\.[0-9a-f]{8}$/, '') }));
    for (const { taskId } of jobs) expect(engine.tasks.get(taskId)?.state).toBe('running');
    return { engine, runId: run.runId, cancel: () => run.cancel(), redis, jobs, replies };
  }

  const request = (i: number, change: Record<string, unknown> = {}): Record<string, unknown> => ({
    runId: 'r', sessionId: 's', approvalId: `approval_${i}`, callId: `c${i}`, toolName: 'bash', args: { command: 'ls' }, reason: 'x', agentName: 'explorer', ...change,
  });
  const ask = (id: string, req: Record<string, unknown>): string => JSON.stringify({ kind: 'ask', id, replyTo: 'liar', request: req });
  const pendingIds = (d: Delegating): string[] => d.engine.runs.pendingApprovals(d.runId).map((p) => p.approvalId);

  it(`past ${MAX_WAITING_ASKS} waiting in one run, all its jobs together, are refused; an answer frees a place for any job`, async () => {
    const d = await delegating(await scale.kit());
    const [a, b] = d.jobs as [Delegating['jobs'][0], Delegating['jobs'][0]];
    const each = 40; // under the bound per job, over it for the run
    const pipe = d.redis.pipeline();
    for (let i = 0; i < each; i++) pipe.publish(a.channel, ask(`a${i}`, request(i, { taskId: a.taskId })));
    for (let i = 0; i < each; i++) pipe.publish(b.channel, ask(`b${i}`, request(each + i, { taskId: b.taskId })));
    await pipe.exec();
    const over = 2 * each - MAX_WAITING_ASKS;
    await waitFor(() => d.replies.length === over && pendingIds(d).length === MAX_WAITING_ASKS);
    expect(pendingIds(d)).toEqual(Array.from({ length: MAX_WAITING_ASKS }, (_, i) => `approval_${i}`));
    expect(d.replies.map((r) => r.id)).toEqual(Array.from({ length: over }, (_, i) => `b${each - over + i}`));
    for (const r of d.replies) expect(r.decision).toMatchObject({ decision: 'reject', comment: expect.stringContaining(`${MAX_WAITING_ASKS} approvals waiting`) });
    // Job a's answered ask leaves a place that job b's next ask takes.
    expect(d.engine.runs.answer(d.runId, 'approval_0', { decision: 'approve' })).toBe(true);
    await waitFor(() => d.replies.length === over + 1);
    await d.redis.publish(b.channel, ask('b-later', request(1000, { taskId: b.taskId })));
    await waitFor(() => pendingIds(d).includes('approval_1000'));
    expect(d.replies).toHaveLength(over + 1);
    d.cancel();
  });

  it(`with args of more than ${MAX_ASK_ARGS_BYTES} bytes as JSON are refused; args of exactly that many are filed`, async () => {
    const d = await delegating(await scale.kit());
    const { channel, taskId } = d.jobs[0]!;
    const wrap = '{"c":""}'.length; // the JSON around the text
    const sent: [string, unknown][] = [
      ['one-over', { c: 'x'.repeat(MAX_ASK_ARGS_BYTES - wrap + 1) }],
      // Half as many characters, each two bytes: bytes are bounded, not characters.
      ['two-byte', { c: 'é'.repeat(MAX_ASK_ARGS_BYTES / 2) }],
      ['at-bound', { c: 'x'.repeat(MAX_ASK_ARGS_BYTES - wrap) }],
    ];
    for (const [id, args] of sent) await d.redis.publish(channel, ask(id, request(sent.findIndex(([i]) => i === id), { taskId, args })));
    await waitFor(() => d.replies.length === 2 && pendingIds(d).length === 1);
    expect(pendingIds(d)).toEqual(['approval_2']);
    expect(d.replies.map((r) => r.id)).toEqual(['one-over', 'two-byte']);
    for (const r of d.replies) expect(r.decision).toMatchObject({ decision: 'reject', comment: expect.stringMatching(/refused: its args are \d+ bytes as JSON, more than the 1048576 .*\(fail-closed\)$/) });
    d.cancel();
  });

  it("naming another task the engine runs are refused; naming none are filed under the job's task, naming one the engine does not know (delegated on the worker) as named", async () => {
    const d = await delegating(await scale.kit());
    const [a, b] = d.jobs as [Delegating['jobs'][0], Delegating['jobs'][0]];
    await d.redis.publish(a.channel, ask('other', request(0, { taskId: b.taskId })));
    await d.redis.publish(a.channel, ask('none', request(1)));
    await d.redis.publish(a.channel, ask('own', request(2, { taskId: a.taskId })));
    await d.redis.publish(a.channel, ask('below', request(3, { taskId: 'task_delegated_on_the_worker' })));
    await waitFor(() => d.replies.length === 1 && pendingIds(d).length === 3);
    expect(d.replies).toEqual([{ id: 'other', decision: { decision: 'reject', comment: expect.stringContaining(`names task ${b.taskId}, not task ${a.taskId}`) } }]);
    const filed = d.engine.runs.pendingApprovals(d.runId).map((p) => [p.approvalId, p.taskId]);
    expect(filed).toEqual([['approval_1', a.taskId], ['approval_2', a.taskId], ['approval_3', 'task_delegated_on_the_worker']]);
    d.cancel();
  });
});
