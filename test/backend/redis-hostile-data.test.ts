import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { filter, firstValueFrom } from 'rxjs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { redisBackend, type RedisBackend } from '../../src/backend/redis-backend.js';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { isAgentEvent } from '../../src/events/guards.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import type { SequencedEvent } from '../../src/runs/run-types.js';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';
import { testAgent } from '../support/agent-turns.js';
import { record } from '../support/collect-events.js';
import { createGate } from '../support/deferred.js';
import { steps, taskReply } from '../support/delegation-script.js';
import { HAS_REDIS, startRedis, type RedisServer } from './redis-server.js';
import { eventsOf, useScaleKits, waitFor } from './scale-kit.js';
import { EMPTY_HOME } from '../support/empty-home.js';
import { makeWorkspace } from '../support/tool-context.js';

const event = (n: number): AgentEvent => ({ type: 'Warning', runId: 'r', agentName: 'main', code: 'TEST', message: `event ${n}` });

/** The process warnings emitted while the test runs (what `warnBadData` reports). */
function processWarnings(): { readonly messages: string[]; stop(): void } {
  const messages: string[] = [];
  const listener = (warning: Error): void => void messages.push(warning.message);
  process.on('warning', listener);
  return { messages, stop: () => process.off('warning', listener) };
}

describe.skipIf(!HAS_REDIS)('what Redis holds is checked before use', () => {
  let redis: RedisServer;
  let backend: RedisBackend;
  const closers: (() => Promise<unknown>)[] = [];
  beforeAll(async () => {
    redis = await startRedis();
    backend = await redisBackend({ url: redis.url, prefix: 'hostile' });
  });
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
  });
  afterAll(async () => {
    await backend?.close();
    await redis?.stop();
  });

  it('a follower of a log skips null, garbage, duplicate and out-of-order entries: only events, seqs strictly increasing', async () => {
    const log = backend.eventLog;
    const key = backend.parts.keys.log('victim');
    const warnings = processWarnings();
    closers.push(async () => warnings.stop());
    await log.append({ runId: 'victim', seq: 1, event: event(1) });
    await log.append({ runId: 'victim', seq: 2, event: event(2) });
    const follower = record(log.read('victim', 0));
    await waitFor(() => follower.events.length === 2);
    const redisConn = backend.parts.redis;
    await redisConn.xadd(key, '*', 's', '3', 'e', 'null');
    await redisConn.xadd(key, '*', 's', '3', 'e', '{"type":"RunEnd","runId":"r","agentName":"main"}'); // no text, no metrics
    await redisConn.xadd(key, '*', 's', 'three', 'e', JSON.stringify(event(3)));
    await redisConn.xadd(key, '*', 'x', 'y');
    await redisConn.xadd(key, '*', 's', '2', 'e', JSON.stringify(event(99))); // a duplicate
    await redisConn.xadd(key, '*', 's', '1', 'e', JSON.stringify(event(98))); // going back
    await redisConn.xadd(key, '*', 'end', 'null');
    await log.append({ runId: 'victim', seq: 3, event: event(3) });
    await redisConn.xadd(key, '*', 's', '3', 'e', JSON.stringify(event(97))); // a duplicate of a good one
    await log.append({ runId: 'victim', seq: 4, event: event(4) });
    await log.end('victim', { kind: 'complete' });
    await follower.done;
    const expectClean = (events: readonly SequencedEvent[]): void => {
      expect(events.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
      expect(events.map((e) => (e.event.type === 'Warning' ? e.event.message : e.event.type))).toEqual(['event 1', 'event 2', 'event 3', 'event 4']);
      for (const e of events) expect(isAgentEvent(e.event)).toBe(true);
    };
    expectClean(follower.events);
    expect(follower.completed).toBe(true);
    // A reader replaying the finished log sees the same; from a position, only what follows it.
    const replay = record(log.read('victim', 0));
    await replay.done;
    expectClean(replay.events);
    const later = record(log.read('victim', 2));
    await later.done;
    expect(later.events.map((e) => e.seq)).toEqual([3, 4]);
    // No run to carry a Warning: said once, as a process warning naming the log.
    const mine = warnings.messages.filter((m) => m.includes('event log of victim'));
    expect(mine).toHaveLength(1);
    expect(mine[0]).toContain('its event (seq 3) is not an event of a run');
  });

  it('wrong-type keys at <prefix>:runs and <prefix>:results:* do not stop redisBackend(): each is passed over with a warning', async () => {
    const prefix = 'wrongtype';
    const conn = backend.parts.redis;
    await conn.set(`${prefix}:runs`, 'not a hash');
    await conn.rpush(`${prefix}:results:ses_a`, 'not', 'a', 'hash');
    await conn.set(`${prefix}:results:ses_b`, 'nor this');
    await conn.hset(`${prefix}:results:ses_c`, 'task_1', 'null', 'task_2', '{"taskId":1}');
    const warnings = processWarnings();
    closers.push(async () => warnings.stop());
    const other = await redisBackend({ url: redis.url, prefix });
    closers.push(() => other.close());
    expect(warnings.messages.some((m) => m.includes(`${prefix}:runs is a string, not a hash`))).toBe(true);
    expect(warnings.messages.some((m) => m.includes(`${prefix}:results:ses_a is a list, not a hash`))).toBe(true);
    expect(warnings.messages.some((m) => m.includes(`${prefix}:results:ses_b is a string, not a hash`))).toBe(true);
    // And an engine on it runs.
    const engine = new HarnessEngine({ model: new ScriptedModel([{ text: 'still up' }]), homeDir: EMPTY_HOME, backend: other });
    closers.push(() => engine.close());
    await expect(engine.call('hi', { sessionId: 'ses_a' })).resolves.toMatchObject({ text: 'still up', abnormal: false });
  });

  it('a stored session item that is not JSON is skipped with a Warning of the run; a task info of the wrong shape is refused, not read as unknown', async () => {
    const conn = backend.parts.redis;
    const { keys } = backend.parts;
    await conn.rpush(keys.session('ses_junk'), '{not json', 'null', JSON.stringify({ role: 'user', content: 'kept' }), JSON.stringify({ role: 'assistant', content: 'ok' }));
    await conn.set(keys.taskInfo('task_junk'), '{"taskId":7}');
    await expect(backend.sessions.loadTaskInfo('task_junk')).rejects.toMatchObject({ name: 'UnsealedSessionError', problem: 'has a number as its "taskId", not a string' });
    const engine = new HarnessEngine({ model: new ScriptedModel([{ text: 'fine' }]), homeDir: EMPTY_HOME, backend });
    closers.push(() => engine.close());
    const events = await eventsOf(engine.stream('go', { sessionId: 'ses_junk' }));
    const skipped = events.filter((e) => e.type === 'Warning' && e.code === 'session-entry-skipped');
    expect(skipped).toHaveLength(1); // one for the load, counting both
    expect(skipped[0]).toMatchObject({ message: expect.stringContaining('Skipped 2 stored messages of session "ses_junk"') });
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'fine' });
  });

  it('session ids that are not well-formed Unicode are refused by the engine and by every store', async () => {
    const lone = 'ses_\ud800';
    const other = 'ses_\udc00'; // UTF-8 encodes both as U+FFFD: one Redis key, one file name
    const engine = new HarnessEngine({ model: new ScriptedModel([{ text: 'never' }]), homeDir: EMPTY_HOME, backend });
    closers.push(() => engine.close());
    const refused = /The sessionId cannot be used: it is not well-formed Unicode: a lone surrogate \\ud800 at index 4/;
    expect(() => engine.start('hi', { sessionId: lone })).toThrow(refused);
    await expect(eventsOf(engine.stream('hi', { sessionId: lone }))).rejects.toThrow(refused);
    await expect(engine.call('hi', { sessionId: lone })).rejects.toThrow(TypeError);
    expect(engine.runs.list()).toEqual([]);
    // The stores refuse them too (a custom caller, or a run reaching a store another way).
    await expect(backend.sessions.append(lone, [{ role: 'user', content: 'secret' }])).rejects.toThrow(refused);
    await expect(backend.sessions.load(other)).rejects.toThrow(/lone surrogate \\udc00/);
    await expect(backend.sessions.claim(lone, 'run_x')).rejects.toThrow(refused);
    expect(() => new MemorySessionStore().append(lone, [])).toThrow(refused);
    const ws = await makeWorkspace('rxh-lone-');
    closers.push(() => ws.cleanup());
    const files = new FileSessionStore(ws.dir, { home: ws.home });
    await expect(files.append(lone, [{ role: 'user', content: 'secret' }])).rejects.toThrow(refused);
    await expect(files.load(other)).rejects.toThrow(TypeError);
    // A well-formed astral character (a surrogate pair) is fine.
    await backend.sessions.append('ses_\u{1F600}', [{ role: 'user', content: 'smile' }]);
    expect(await backend.sessions.load('ses_\u{1F600}')).toEqual([{ role: 'user', content: 'smile' }]);
  });
});

describe.skipIf(!HAS_REDIS)('a child whose event log is written into while it runs on a worker', () => {
  const scale = useScaleKits();

  it('forged answers on the runs channel (no decision, a decision that is none) reach no waiting approval; the real answer does', async () => {
    const kit = await scale.kit();
    kit.fixture.route({ main: steps({ toolCalls: [{ name: 'bash', arguments: { command: 'echo forged > forged.txt' } }] }) });
    const owner = await kit.engine();
    const other = await kit.engine();
    const run = owner.start('go');
    const pending = await firstValueFrom(run.events$.pipe(filter(({ event }) => event.type === 'HITLPending')));
    const approvalId = pending.event.type === 'HITLPending' ? pending.event.approvalId : '';
    await waitFor(() => other.runs.pendingApprovals(run.runId).length === 1);
    const conn = (await kit.backend()).parts.redis;
    const channel = `${kit.prefix}:runs-events`;
    for (const decision of [null, 'approve', { decision: 'yes' }, { decision: 'approve', comment: 7 }]) {
      await conn.publish(channel, JSON.stringify({ op: 'answer', runId: run.runId, approvalId, decision }));
    }
    // Published after the forged ones on the same channel: the owner hears it last.
    expect(await other.runs.answer(run.runId, approvalId, { decision: 'reject', comment: 'the real answer' })).toBe(true);
    const { text } = await run.result;
    expect(text).toContain('rejected: the real answer');
    expect(existsSync(join(kit.fixture.workspace.dir, 'forged.txt'))).toBe(false);
  });

  it('gets the bad entries skipped with Warnings of the child, and the run ends normally (nothing thrown in a subscriber)', async () => {
    const kit = await scale.kit();
    const gate = createGate();
    let asked = false;
    kit.fixture.route({
      main: steps(taskReply('explorer', 'look around', 'look')),
      explorer: async () => {
        asked = true;
        await gate.promise;
        return { text: 'found it' };
      },
    });
    const engine = await kit.engine({ distributeTasks: true }, [testAgent('explorer')]);
    await kit.worker();
    const run = record(engine.stream('go'));
    try {
      await waitFor(() => asked, 15_000);
      const conn = (await kit.backend()).parts.redis;
      const [, logs] = await conn.scan('0', 'MATCH', `${kit.prefix}:log:task_*`, 'COUNT', 1000);
      expect(logs).toHaveLength(1);
      await conn.xadd(logs[0]!, '*', 's', '1000', 'e', 'null');
      await conn.xadd(logs[0]!, '*', 's', '1', 'e', JSON.stringify(event(1))); // a seq going back
      await conn.xadd(logs[0]!, '*', 'garbage', '1');
    } finally {
      gate.open();
    }
    await run.done;
    expect(run.error).toBeUndefined();
    const inner = run.events.flatMap((e) => (e.type === 'TaskWrap' ? [e.event] : []));
    const warnings = inner.filter((e) => e.type === 'Warning' && e.code === 'bad-log-entry');
    expect(warnings).toHaveLength(3);
    expect(warnings[0]).toMatchObject({ agentName: 'explorer', message: expect.stringContaining('is not an event of a run') });
    expect(warnings[1]).toMatchObject({ message: expect.stringContaining('its seq 1 goes back') });
    for (const e of inner) expect(isAgentEvent(e)).toBe(true);
    expect(inner.filter((e) => e.type === 'RunEnd')).toHaveLength(1);
    expect(run.events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: expect.stringContaining('found it') });
  });
});
