/**
 * A task resumed with `task_id` in the same run shows its `data-task` part running again
 * while it runs, not its last answer.
 */
import { lastValueFrom, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { toUiMessageStream } from '../../../src/protocols/ui-message-stream/to-ui-message-stream.js';
import { testAgent } from '../../support/agent-turns.js';
import { startDelegationFixture, type DelegationFixture } from '../../support/delegation-fixture.js';

let fixture: DelegationFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

describe('data-task part of a task resumed in the same run', () => {
  it('goes back to running, its old answer dropped and its new description shown, before the new answer', async () => {
    fixture = await startDelegationFixture({
      main: (turn) => {
        if (turn.step === 1) return { toolCalls: [{ id: 'c1', name: 'task', arguments: { agent_name: 'alpha', prompt: 'first', description: 'Do it' } }] };
        if (turn.step === 2) {
          const taskId = /task_[0-9a-f]{8}-[0-9a-f-]{27}/.exec(turn.toolResults.join('\n'))?.[0] ?? '';
          return { toolCalls: [{ id: 'c2', name: 'task', arguments: { agent_name: 'alpha', prompt: 'again', description: 'Do it again', task_id: taskId } }] };
        }
        return { text: 'main done' };
      },
      alpha: (turn) => ({ text: `alpha answered ${turn.prompt}` }),
    });
    const engine = fixture.engine({}, [testAgent('alpha')]);
    const chunks = await lastValueFrom(engine.stream('go', { sessionId: 's1' }).pipe(toUiMessageStream(), toArray()));
    await engine.close();
    const parts = chunks.flatMap((c) => (c.type === 'data-task' ? [c.data] : []));
    expect(new Set(parts.map((p) => p.taskId)).size).toBe(1);
    const firstDone = parts.findIndex((p) => p.state === 'done');
    const after = parts.slice(firstDone + 1);
    // The resumed run: running with its new description and no answer, then done with the new answer.
    const rerun = after.findIndex((p) => p.state === 'running');
    expect(rerun).toBeGreaterThanOrEqual(0);
    expect(after[rerun]).toMatchObject({ description: 'Do it again' });
    expect(after[rerun]).not.toHaveProperty('answer');
    expect(after.slice(0, rerun).every((p) => p.state !== 'done')).toBe(true);
    expect(parts.at(-1)).toMatchObject({ state: 'done', answer: expect.stringContaining('again') as unknown });
  }, 60_000);
});
