/**
 * A worker's task keeps its "always" under its conversation only while the conversation's
 * run holds its claim, checked in the script that saves it (a check, then a save, let the
 * run end and the conversation be deleted between them: the grant came back with the
 * session's time to live). A run without a `sessionId` holds no claim: its tasks' grants stay
 * in the worker's memory, for its next task too. The Redis store says it keeps grants, so an
 * engine whose very first "always" failed to save asks again after a delete elsewhere.
 */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApprovalDecision, ApprovalRequest } from '../../src/permission/approval.js';
import { testAgent } from '../support/agent-turns.js';
import { steps, taskReply } from '../support/delegation-script.js';
import { HAS_REDIS } from './redis-server.js';
import { eventsOf, useScaleKits, waitFor } from './scale-kit.js';

const touch = { toolCalls: [{ name: 'bash', arguments: { command: 'touch granted.txt' } }] };
const grant = { toolName: 'bash', subject: 'npm test' };

describe.skipIf(!HAS_REDIS)('a worker task\'s "always": kept only under a held claim', () => {
  const scale = useScaleKits();

  it('the store saves a grant with `heldBy` only while one of those runs holds the claim', async () => {
    const k = await scale.kit();
    const { sessions, parts } = await k.backend();
    await sessions.saveGrant('nobody', grant, ['run_a']);
    const other = await sessions.claim('other', 'run_b');
    await sessions.saveGrant('other', grant, ['run_a']);
    if (other.granted) other.release();
    const ours = await sessions.claim('ours', 'run_a');
    await sessions.saveGrant('ours', grant, ['run_x', 'run_a']);
    if (ours.granted) ours.release();
    expect(await sessions.loadGrants('nobody')).toEqual([]);
    expect(await sessions.loadGrants('other')).toEqual([]);
    expect(await sessions.loadGrants('ours')).toEqual([grant]);
    expect(await parts.redis.exists(parts.keys.grants('nobody'), parts.keys.grants('other'))).toBe(0);
  });

  it('a save that reaches Redis after the run ended and the conversation was deleted stores nothing', async () => {
    const k = await scale.kit();
    k.fixture.route({ main: steps(taskReply('explorer', 'run it', 'bash')), explorer: steps(touch) });
    const wb = await k.backend();
    const redis = wb.parts.redis;
    const send = redis.eval.bind(redis) as (...args: unknown[]) => Promise<unknown>;
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const saves: Promise<unknown>[] = [];
    // The worker's grant save is held back (a slow network) until the delete is done.
    (redis as unknown as { eval: (...args: unknown[]) => Promise<unknown> }).eval = (...args) => {
      if (!String(args[0]).includes("RPUSH', KEYS[4]")) return send(...args);
      const sent = gate.then(() => send(...args));
      saves.push(sent.catch(() => undefined));
      return sent;
    };
    await k.worker({}, wb);
    const asked: ApprovalRequest[] = [];
    const e = await k.engine({ distributeTasks: true, approve: (r) => (asked.push(r), { decision: 'always' }) }, [testAgent('explorer')]);
    await e.call('first', { sessionId: 'conv' });
    expect(asked).toHaveLength(1);
    await waitFor(() => saves.length === 1);
    await waitFor(async () => (await wb.parts.redis.exists(wb.parts.keys.claim('conv'))) === 0);
    await e.sessions.delete!('conv');
    open();
    await Promise.all(saves);
    expect(await e.sessions.loadGrants!('conv')).toEqual([]);
    expect(await wb.parts.redis.exists(wb.parts.keys.grants('conv'))).toBe(0);
  });

  it("a run without a sessionId: its first task's \"always\" on a worker holds for its second task", async () => {
    const k = await scale.kit();
    const asked: ApprovalRequest[] = [];
    await k.worker();
    const e = await k.engine({ distributeTasks: true, approve: (r) => (asked.push(r), { decision: 'always' }) }, [testAgent('explorer')]);
    k.fixture.route({
      main: steps(taskReply('explorer', 'first', 'bash'), taskReply('explorer', 'second', 'bash'), { text: 'done' }),
      explorer: steps(touch, { text: 'ok' }),
    });
    await e.call('no session'); // two tasks, one after the other, on the worker
    expect(asked).toHaveLength(1);
    expect(existsSync(join(k.fixture.workspace.dir, 'granted.txt'))).toBe(true);
  });

  it('an engine whose first "always" Redis refused (out of memory) asks again after a delete on another engine', async () => {
    const k = await scale.kit();
    k.fixture.route({ main: steps(touch) });
    const file = join(k.fixture.workspace.dir, 'granted.txt');
    const admin = (await k.backend()).parts.redis;
    const asked: ApprovalRequest[] = [];
    let answer: ApprovalDecision['decision'] = 'always';
    const a = await k.engine({
      approve: async (r) => {
        asked.push(r);
        if (asked.length === 1) await admin.config('SET', 'maxmemory', '1'); // full as the grant is saved
        return { decision: answer };
      },
    });
    const b = await k.engine({});
    try {
      await eventsOf(a.stream('first', { sessionId: 'conv' })).catch(() => []);
    } finally {
      await admin.config('SET', 'maxmemory', '0');
    }
    expect(await a.sessions.loadGrants!('conv')).toEqual([]);
    if (existsSync(file)) rmSync(file);
    await b.sessions.delete!('conv');
    answer = 'reject';
    await a.call('a new conversation', { sessionId: 'conv' });
    expect(asked).toHaveLength(2);
    expect(existsSync(file)).toBe(false);
  });
});
