import { afterEach, describe, expect, it } from 'vitest';
import type { SessionStore } from '../../src/session/session-store.js';
import { testAgent } from '../support/agent-turns.js';
import { collect, own } from '../support/collect-events.js';
import { createGate, type Gate } from '../support/deferred.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { steps } from '../support/delegation-script.js';
import { lifecycleTaskReply, parseTaskResult, settled } from '../support/lifecycle-script.js';
import { wrappedMemoryStore } from '../support/wrapped-store.js';

let f: DelegationFixture;
afterEach(() => f.close());

/** The last user message of the main agent's latest request. */
function lastMainPrompt(): string {
  return String(f.requestsOf('main').at(-1)!.body.messages!.findLast((m) => m.role === 'user')!.content);
}

/** Runs `go` in session s1: main starts one background alpha, which answers at once. */
async function finishedBackgroundTask(options: { sessions?: SessionStore } = {}) {
  f = await startDelegationFixture({
    main: steps(lifecycleTaskReply('alpha', 'start', { background: true })),
    alpha: (turn) => ({ text: `alpha: ${turn.prompt}` }),
  });
  const engine = f.engine(options, [testAgent('alpha')]);
  await engine.call('go', { sessionId: 's1' });
  const [task] = engine.tasks.list();
  await settled(engine.tasks, task!.taskId);
  f.route({ main: () => ({ text: 'ok' }) });
  return { engine, taskId: task!.taskId };
}

/** Set `hold` to make the next session loads wait for it; `loading` opens when one starts. */
interface Holds {
  hold?: Gate;
  loading?: Gate;
}

/** A memory store whose session loads can be held (a slow store). */
function holdableStore(holds: Holds): SessionStore {
  return wrappedMemoryStore((memory) => ({
    load: async (id) => {
      holds.loading?.open();
      await holds.hold?.promise;
      return memory.load(id);
    },
  }));
}

describe('delivering background results', () => {
  it('are in the saved prompt, while RunStart keeps the prompt as given', async () => {
    const { engine, taskId } = await finishedBackgroundTask();
    const events = await collect(engine.stream('next', { sessionId: 's1' }));
    expect(own(events, 'RunStart')[0]!.prompt).toBe('next');
    expect(parseTaskResult(lastMainPrompt())).toMatchObject({ taskId, status: 'success', content: 'alpha: start' });
    expect(lastMainPrompt().endsWith('</background_task_results>\n\nnext')).toBe(true);
  });

  it('a run stopped before its prompt was saved uses nothing up: the next run gets them', async () => {
    const holds: Holds = {};
    const { engine, taskId } = await finishedBackgroundTask({ sessions: holdableStore(holds) });
    holds.hold = createGate();
    holds.loading = createGate();
    const requests = f.requestsOf('main').length;
    const stopped = engine.stream('stopped', { sessionId: 's1' }).subscribe();
    await holds.loading.promise; // the run is loading its session
    stopped.unsubscribe();
    holds.hold.open();

    await engine.call('next', { sessionId: 's1' });
    expect(f.requestsOf('main')).toHaveLength(requests + 1);
    expect(parseTaskResult(lastMainPrompt())).toMatchObject({ taskId, content: 'alpha: start' });
    expect(lastMainPrompt().endsWith('\n\nnext')).toBe(true);
  });

  it('a task resumed before its result was delivered still delivers it at the next prompt', async () => {
    f = await startDelegationFixture();
    const engine = f.engine({}, [testAgent('alpha')]);
    let taskId = '';
    f.route({
      main: async (turn) => {
        if (turn.step === 1) return lifecycleTaskReply('alpha', 'start', { background: true });
        if (turn.step === 2) {
          taskId = parseTaskResult(turn.toolResults[0]!).taskId;
          await settled(engine.tasks, taskId); // finished, and its result not delivered yet
          return lifecycleTaskReply('alpha', 'continue', { task_id: taskId });
        }
        return { text: 'ok' };
      },
      alpha: (turn) => ({ text: `alpha: ${turn.prompt}` }),
    });
    await engine.call('go', { sessionId: 's1' });
    expect(engine.tasks.get(taskId)).toMatchObject({ state: 'done', result: 'alpha: continue', background: false });

    f.route({ main: () => ({ text: 'ok' }) });
    await engine.call('next', { sessionId: 's1' });
    expect(parseTaskResult(lastMainPrompt())).toMatchObject({ taskId, status: 'success', content: 'alpha: start' });
  });
});
