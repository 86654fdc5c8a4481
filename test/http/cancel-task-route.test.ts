/**
 * DELETE /api/runs/:id/tasks/:taskId against a real engine on the fake OpenAI server: one of
 * three running tasks is cancelled (its model stream is held open), the other two and the run
 * go on to their ends; unknown runs and tasks, and tasks of another run, are 404s.
 */
import { describe, expect, it } from 'vitest';
import type { DelegationFixture } from '../support/delegation-fixture.js';
import { multitaskReply, steps } from '../support/delegation-script.js';
import { createGate } from '../support/deferred.js';
import { useTokenRunsApi } from '../support/token-runs-api.js';
import type { RunsServer } from './http-kit.js';

const api = useTokenRunsApi('cancel-task-route-token-012345');
let served: RunsServer | undefined;

async function del(path: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${served!.url}/api${path}`, { method: 'DELETE', headers: api.headers });
  return { status: response.status, body: (await response.json()) as unknown };
}

describe('DELETE /api/runs/:id/tasks/:taskId', () => {
  it('cancels one of three running tasks; the other two finish and the run ends done', async () => {
    const release = createGate();
    let fixture: DelegationFixture;
    ({ served, fixture } = await api.serveRoutes({
      main: steps(multitaskReply([[1, 'explore', 'job one', 'One'], [2, 'explore', 'job two', 'Two'], [3, 'explore', 'job three', 'Three']])),
      // Every child's stream waits for the test: all three are running when one is cancelled.
      '*': async (turn) => {
        await release.promise;
        return { text: `finished ${turn.prompt}`, chunkDelayMs: 5 };
      },
    }));
    const { runId, sessionId } = served.engine.start('Split it in three');
    await fixture.server.waitForRequests(4); // main's, then the three children's
    const tasks = served.engine.tasks.list(sessionId);
    expect(tasks.map((t) => [t.description, t.state])).toEqual([['One', 'running'], ['Two', 'running'], ['Three', 'running']]);
    const two = tasks[1]!.taskId;

    expect(await del(`/runs/${runId}/tasks/${two}`)).toEqual({ status: 202, body: { runId, taskId: two, state: 'cancelled' } });
    release.open();
    await served.engine.runs.attach(runId).forEach(() => undefined);

    expect(served.engine.runs.get(runId)?.state).toBe('done');
    expect(served.engine.tasks.list(sessionId).map((t) => [t.description, t.state])).toEqual([['One', 'done'], ['Two', 'cancelled'], ['Three', 'done']]);
    expect((await del(`/runs/${runId}/tasks/${two}`)).status).toBe(409); // ended: nothing left to cancel
  });

  it('answers 404 for an unknown run, an unknown task, and a task of another run', async () => {
    let fixture: DelegationFixture;
    ({ served, fixture } = await api.serveRoutes({
      main: steps(multitaskReply([[1, 'explore', 'job', 'Job']])),
      '*': () => ({ hang: true }),
    }));
    const running = served.engine.start('One task');
    await fixture.server.waitForRequests(2);
    const [task] = served.engine.tasks.list(running.sessionId);
    fixture.route({ main: () => ({ text: 'done' }) });
    const other = served.engine.start('No tasks');
    await served.engine.runs.attach(other.runId).forEach(() => undefined);

    expect((await del(`/runs/run_unknown/tasks/${task!.taskId}`)).status).toBe(404);
    expect(await del(`/runs/${running.runId}/tasks/task_unknown`)).toEqual({ status: 404, body: { error: `run "${running.runId}" has no task "task_unknown"` } });
    expect((await del(`/runs/${other.runId}/tasks/${task!.taskId}`)).status).toBe(404);
    expect(served.engine.tasks.get(task!.taskId)?.state).toBe('running'); // none of those touched it
  });
});
