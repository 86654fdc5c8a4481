import { describe, expect, it } from 'vitest';
import { MAX_NAME } from '../../../src/http/request-bodies.js';
import { agUiServerPerTest } from '../../support/ag-ui-server-per-test.js';
import { postRunAgentInput, user } from './ag-ui-requests.js';

const agUi = agUiServerPerTest();

/**
 * The `threadId` is the session's id and the `runId` is echoed in RUN_STARTED and
 * RUN_FINISHED: a 900 KB one of either was taken and sent back twice. Both are bounded as the
 * runs API's names are.
 */
const WHY = { threadId: "it is the session's id", runId: "it is echoed in the run's events" } as const;

describe('agUiHandler: the bounds of a threadId and a runId', () => {
  it.each([
    ['threadId', 'one character too long', 'a'.repeat(MAX_NAME + 1), `got ${MAX_NAME + 1} characters`],
    ['threadId', '900 KB long', 't'.repeat(900_000), 'got 900000 characters'],
    ['threadId', 'a control character (BEL)', 'thread\u0007one', 'got 10 characters'],
    ['threadId', 'a C1 control character (NEL)', 'thread\u0085one', 'got 10 characters'],
    ['runId', 'one character too long', 'r'.repeat(MAX_NAME + 1), `got ${MAX_NAME + 1} characters`],
    ['runId', '900 KB long', 'r'.repeat(900_000), 'got 900000 characters'],
    ['runId', 'a control character (newline)', 'run\none', 'got 7 characters'],
    ['runId', 'a C1 control character (NEL)', 'run\u0085one', 'got 7 characters'],
  ] as const)('refuses a %s of %s (400 naming the field), before any run starts', async (field, _name, value, length) => {
    const served = await agUi.serve({ main: () => ({ text: 'never asked' }) });
    const answer = await postRunAgentInput(served.url, { threadId: 't1', runId: 'r1', [field]: value, messages: [user('go')] });
    expect(answer.status).toBe(400);
    const { error } = JSON.parse(answer.text) as { error: string };
    expect(error).toBe(`not a RunAgentInput: ${field} must be 1 to ${MAX_NAME} characters without control characters (${WHY[field]}), ${length}`);
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

  it(`takes a runId of ${MAX_NAME} characters: it is echoed in RUN_STARTED and RUN_FINISHED`, async () => {
    const served = await agUi.serve({ main: () => ({ text: 'done' }) });
    const runId = `r-${'x'.repeat(MAX_NAME - 2)}`;
    const answer = await postRunAgentInput(served.url, { threadId: 't1', runId, messages: [user('go')] });
    expect(answer.events[0]).toMatchObject({ type: 'RUN_STARTED', threadId: 't1', runId });
    expect(answer.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', threadId: 't1', runId, result: 'done' });
  }, 30_000);
});
