import { describe, expect, it } from 'vitest';
import type { HarnessEngine } from '../../src/engine/harness-engine.js';
import { testAgent } from '../support/agent-turns.js';
import { taskReply } from '../support/delegation-script.js';
import { HAS_REDIS } from './redis-server.js';
import { useScaleKits, waitFor } from './scale-kit.js';

/**
 * An approval a worker relays names the run at the top of its tree (`rootRunId`), and the
 * launching engine files it under that run: whoever answers that run's approvals may answer
 * it. The message comes over Redis from whoever can publish on the job's channel (a lying
 * worker): the launcher knows which run delegated the job, and only that run may hold it.
 * A replay of a question still waiting must not be asked again either: refused as a duplicate,
 * that refusal went back to the worker as the answer to the real question.
 */
describe.skipIf(!HAS_REDIS)('an approval a worker relays', () => {
  const scale = useScaleKits();

  it('naming another run is filed under the run that delegated the job, never under the run it names', async () => {
    const k = await scale.kit();
    // `delegate`: a task nobody runs (no worker), so its launcher listens on its approvals channel.
    // `ask`: the main agent's own bash call, waiting for an answer, so that run stays running.
    k.fixture.route({
      main: (turn) => (turn.step > 1 ? { text: 'done' } : turn.prompt === 'delegate' ? taskReply('explorer', 'look', 'explore') : { toolCalls: [{ name: 'bash', arguments: { command: 'echo victim' } }] }),
    });
    const engine: HarnessEngine = await k.engine({ distributeTasks: true }, [testAgent('explorer')]);
    const victim = engine.start('ask');
    await waitFor(() => engine.runs.pendingApprovals(victim.runId).length === 1);
    const delegating = engine.start('delegate');
    const redis = (await k.backend()).parts.redis;
    const channel = async (): Promise<string | undefined> => ((await redis.pubsub('CHANNELS', `${k.prefix}:approve:*`)) as string[])[0];
    await waitFor(async () => (await channel()) !== undefined);
    const forged = {
      kind: 'ask',
      id: 'forged-1',
      replyTo: 'liar',
      request: { runId: 'r', sessionId: 's', approvalId: 'approval_forged', callId: 'c', toolName: 'bash', args: { command: 'rm -rf /' }, reason: 'x', agentName: 'explorer', rootRunId: victim.runId },
    };
    await redis.publish((await channel())!, JSON.stringify(forged));
    const filed = (runId: string): boolean => engine.runs.pendingApprovals(runId).some((p) => p.approvalId === 'approval_forged');
    await waitFor(() => filed(victim.runId) || filed(delegating.runId));
    // The victim's run holds only its own approval: an answer through its route cannot reach the forged one.
    expect(engine.runs.pendingApprovals(victim.runId).map((p) => p.toolName)).toEqual(['bash']);
    expect(filed(victim.runId)).toBe(false);
    expect(filed(delegating.runId)).toBe(true);
    expect(engine.runs.answer(victim.runId, 'approval_forged', { decision: 'approve' })).toBe(false);
    victim.cancel();
    delegating.cancel();
  });

  it('sent again while it waits, is not asked twice: the first stays waiting, and no refusal goes back', async () => {
    const k = await scale.kit();
    k.fixture.route({ main: (turn) => (turn.step > 1 ? { text: 'done' } : taskReply('explorer', 'look', 'explore')) });
    const engine = await k.engine({ distributeTasks: true }, [testAgent('explorer')]);
    const run = engine.start('delegate');
    const redis = (await k.backend()).parts.redis;
    const listener = (await k.backend()).parts.redis.duplicate();
    const replies: string[] = [];
    await listener.subscribe(`${k.prefix}:answers:replayed`);
    listener.on('message', (_channel: string, text: string) => replies.push(text));
    const channel = async (): Promise<string | undefined> => ((await redis.pubsub('CHANNELS', `${k.prefix}:approve:*`)) as string[])[0];
    await waitFor(async () => (await channel()) !== undefined);
    const request = { runId: 'r', sessionId: 's', approvalId: 'approval_replayed', callId: 'c', toolName: 'bash', args: { command: 'ls' }, reason: 'x', agentName: 'explorer' };
    const ask = JSON.stringify({ kind: 'ask', id: 'replayed-1', replyTo: 'replayed', request });
    await redis.publish((await channel())!, ask);
    await waitFor(() => engine.runs.pendingApprovals(run.runId).length === 1);
    await redis.publish((await channel())!, ask);
    // A marker published after the replay on the same connection: once the launcher has it, it has the replay.
    await redis.publish((await channel())!, JSON.stringify({ kind: 'ask', id: 'marker', replyTo: 'replayed', request: { ...request, approvalId: 'approval_marker' } }));
    await waitFor(() => engine.runs.pendingApprovals(run.runId).length === 2);
    expect(engine.runs.pendingApprovals(run.runId).map((p) => p.approvalId)).toEqual(['approval_replayed', 'approval_marker']);
    expect(replies).toEqual([]);
    expect(engine.runs.answer(run.runId, 'approval_replayed', { decision: 'approve' })).toBe(true);
    await waitFor(() => replies.length === 1);
    expect(JSON.parse(replies[0]!)).toEqual({ id: 'replayed-1', decision: { decision: 'approve' } });
    listener.disconnect();
    run.cancel();
  });
});
