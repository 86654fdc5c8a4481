/**
 * The engine puts a note about background results dropped unread (more waited than the
 * tracker's bound) in front of the conversation's next prompt (issue 22.14). The tracker's
 * own tests cover the bound; this pins the engine's wiring, which a merge once lost
 * (d5bb8d0): 17 background results of 1 MB each, against the 16 MiB bound on waiting text.
 */
import { describe, expect, it } from 'vitest';
import { testAgent } from '../support/agent-turns.js';
import { startDelegationFixture, turnOf } from '../support/delegation-fixture.js';
import { taskArgs } from '../support/delegation-script.js';

const TASKS = 17;
const BIG = 1_000_000;

describe('background results dropped unread', () => {
  it("are named at the conversation's next prompt, and the ones that fit are delivered", { timeout: 60_000 }, async () => {
    const fixture = await startDelegationFixture({
      main: (turn) =>
        turn.step === 1 && turn.prompt === 'start them'
          ? { toolCalls: Array.from({ length: TASKS }, (_, i) => ({ name: 'task', arguments: { ...taskArgs('digger', `dig ${i}`, `bg ${i}`), background: true } })) }
          : { text: 'ok' },
      digger: (turn) => ({ text: `${turn.prompt}:`.padEnd(BIG, 'x'), chunkSize: BIG }),
    });
    try {
      const engine = fixture.engine({}, [testAgent('digger')]);
      await engine.call('start them', { sessionId: 's' });
      const started = engine.tasks.list('s');
      expect(started).toHaveLength(TASKS);
      await Promise.all(started.map((t) => engine.tasks.whenSettled(t.taskId)));
      expect(engine.tasks.list('s').every((t) => t.state === 'done')).toBe(true);

      await engine.call('what came back?', { sessionId: 's' });
      const request = fixture.server.requests.filter((r) => turnOf(r).agent === 'main').at(-1)!;
      const prompt = JSON.stringify(request.body.messages?.at(-1));
      const note = /\((\d+) background task results? (?:was|were) dropped unread because too many results were waiting: (task_[^ .,]+)/.exec(prompt);
      expect(note?.[1]).toBe('1');
      // The one named is one of ours, and it is the one whose result is not delivered.
      const dropped = note![2]!;
      expect(started.map((t) => t.taskId)).toContain(dropped);
      const delivered = started.filter((t) => prompt.includes(t.taskId) && t.taskId !== dropped);
      expect(delivered).toHaveLength(TASKS - 1);
      // Said once: the prompt after has neither the note nor the results.
      await engine.call('and now?', { sessionId: 's' });
      const after = JSON.stringify(fixture.server.requests.filter((r) => turnOf(r).agent === 'main').at(-1)!.body.messages?.at(-1));
      expect(after).not.toContain('dropped unread');
      await engine.close();
    } finally {
      await fixture.close();
    }
  });
});
