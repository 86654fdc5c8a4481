import { describe, expect, it } from 'vitest';
import { MAX_NAME } from '../../../src/http/request-bodies.js';
import { agUiServerPerTest } from '../../support/ag-ui-server-per-test.js';
import { postRunAgentInput, user } from './ag-ui-requests.js';

const agUi = agUiServerPerTest();

/**
 * The `runId` is echoed in RUN_STARTED and RUN_FINISHED: a 900 KB one was taken and sent back
 * twice. It is bounded as the `threadId` (and the runs API's names) are.
 */
describe('agUiHandler: the bounds of a runId', () => {
  it.each([
    ['one character too long', 'r'.repeat(MAX_NAME + 1), `got ${MAX_NAME + 1} characters`],
    ['900 KB long', 'r'.repeat(900_000), 'got 900000 characters'],
    ['a control character (newline)', 'run\none', 'got 7 characters'],
    ['a C1 control character (NEL)', 'run\u0085one', 'got 7 characters'],
  ])('refuses a runId of %s (400 naming the field), before any run starts', async (_name, runId, length) => {
    const served = await agUi.serve({ main: () => ({ text: 'never asked' }) });
    const answer = await postRunAgentInput(served.url, { threadId: 't1', runId, messages: [user('go')] });
    expect(answer.status).toBe(400);
    const { error } = JSON.parse(answer.text) as { error: string };
    expect(error).toBe(`not a RunAgentInput: runId must be 1 to ${MAX_NAME} characters without control characters (it is echoed in the run's events), ${length}`);
    expect(answer.text.length).toBeLessThan(300); // the refusal does not echo it
    expect(served.fixture.server.requests).toHaveLength(0);
    expect(served.engine.runs.list()).toHaveLength(0);
  }, 30_000);

  it(`takes a runId of ${MAX_NAME} characters: it is echoed in RUN_STARTED and RUN_FINISHED`, async () => {
    const served = await agUi.serve({ main: () => ({ text: 'done' }) });
    const runId = `r-${'x'.repeat(MAX_NAME - 2)}`;
    const answer = await postRunAgentInput(served.url, { threadId: 't1', runId, messages: [user('go')] });
    expect(answer.events[0]).toMatchObject({ type: 'RUN_STARTED', threadId: 't1', runId });
    expect(answer.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', threadId: 't1', runId, result: 'done' });
  }, 30_000);
});
