/**
 * The task sessions of a run without a `sessionId` are deleted once it has ended, also those
 * of its tasks the tracker has forgotten meanwhile (finished tasks past `retainFinished`: a
 * long one-shot run that delegates much, or a busy server whose other runs finish many
 * tasks): otherwise a one-shot run would leave transcripts in the store for ever.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TaskIdsBySession } from '../../src/engine/task-ids-by-session.js';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';
import { testAgent } from '../support/agent-turns.js';
import { collect, own } from '../support/collect-events.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { multitaskReply, steps } from '../support/delegation-script.js';

let f: DelegationFixture;
afterEach(() => f.close());

describe('a run without a sessionId whose tasks the tracker forgot before it ended', () => {
  it('leaves none of their task sessions in the store', async () => {
    f = await startDelegationFixture();
    f.route({
      main: steps(multitaskReply([[1, 'alpha', 'one', 'one'], [2, 'alpha', 'two', 'two'], [3, 'alpha', 'three', 'three']])),
      alpha: (t) => ({ text: `alpha did ${t.prompt}` }),
    });
    const sessions = new MemorySessionStore();
    const engine = f.engine({ sessions, taskTrackerLimits: { retainFinished: 1 } }, [testAgent('alpha')]);
    const events = await collect(engine.stream('go'));
    const ids = [...own(events, 'ToolCallEnd')[0]!.text.matchAll(/<task_id>([^<]+)<\/task_id>/g)].map((m) => m[1]!);
    expect(ids).toHaveLength(3);
    // The store deletes in its own time; the deadline is for a busy machine, not a target.
    await vi.waitFor(() => expect(ids.filter((id) => sessions.loadTaskInfo(id) !== undefined || sessions.load(id).length > 0)).toEqual([]), { timeout: 15_000, interval: 10 });
    await engine.close();
  });
});

describe('TaskIdsBySession', () => {
  it('stays within its bound, forgetting the conversation that started none the longest first, then the oldest ids of the one starting', () => {
    const ids = new TaskIdsBySession(3);
    ids.add('a', 't1');
    ids.add('b', 't2');
    ids.add('a', 't3'); // a is the newest now
    ids.add('a', 't3'); // again: no change
    ids.add('c', 't4'); // 4 > 3: b goes
    expect(ids.take('b')).toEqual([]);
    expect(ids.take('a')).toEqual(['t1', 't3']);
    for (const n of [5, 6, 7, 8]) ids.add('d', `t${n}`); // one conversation alone past the bound: its oldest go
    expect(ids.take('c')).toEqual([]);
    expect(ids.take('d')).toEqual(['t6', 't7', 't8']);
  });
});
