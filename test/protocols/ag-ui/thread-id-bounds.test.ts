import { describe, expect, it } from 'vitest';
import { MAX_NAME } from '../../../src/http/request-bodies.js';
import { agUiServerPerTest } from '../../support/ag-ui-server-per-test.js';
import { postRunAgentInput, user } from './ag-ui-requests.js';

const agUi = agUiServerPerTest();

/**
 * The `threadId` is the session's id, echoed in the events of every answer: a 900 KB one was
 * taken and sent back twice. It is bounded as the runs API's `sessionId` is.
 */
describe('agUiHandler: the bounds of a threadId', () => {
  it.each([
    ['one character too long', 'a'.repeat(MAX_NAME + 1), `got ${MAX_NAME + 1} characters`],
    ['900 KB long', 't'.repeat(900_000), 'got 900000 characters'],
    ['a control character (BEL)', 'thread\u0007one', 'got 10 characters'],
    ['a C1 control character (NEL)', 'thread\u0085one', 'got 10 characters'],
  ])('refuses a threadId of %s (400 naming the field), before any run starts', async (_name, threadId, length) => {
    const served = await agUi.serve({ main: () => ({ text: 'never asked' }) });
    const answer = await postRunAgentInput(served.url, { threadId, runId: 'r1', messages: [user('go')] });
    expect(answer.status).toBe(400);
    const { error } = JSON.parse(answer.text) as { error: string };
    expect(error).toBe(`not a RunAgentInput: threadId must be 1 to ${MAX_NAME} characters without control characters (it is the session's id), ${length}`);
    expect(answer.text.length).toBeLessThan(300); // the refusal does not echo it
    expect(served.fixture.server.requests).toHaveLength(0);
    expect(served.engine.runs.list()).toHaveLength(0);
  }, 30_000);

  it(`takes a threadId of ${MAX_NAME} characters: the run is on that session`, async () => {
    const served = await agUi.serve({ main: () => ({ text: 'done' }) });
    const threadId = `t-${'x'.repeat(MAX_NAME - 2)}`;
    const answer = await postRunAgentInput(served.url, { threadId, runId: 'r1', messages: [user('go')] });
    expect(answer.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', threadId, result: 'done' });
    expect(served.engine.runs.list().map((r) => r.sessionId)).toEqual([threadId]);
  }, 30_000);
});
