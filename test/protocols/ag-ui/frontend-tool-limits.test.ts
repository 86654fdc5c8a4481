import { describe, expect, it } from 'vitest';
import { FRONTEND_DESCRIPTION_MAX_BYTES, FRONTEND_TOOLS_MAX_BYTES } from '../../../src/protocols/ag-ui/frontend-tool-limits.js';
import { agUiServerPerTest } from '../../support/ag-ui-server-per-test.js';
import { postRunAgentInput, user, type AgUiAnswer } from './ag-ui-requests.js';

/**
 * The descriptions of a request's frontend tools are sent with every model request of its
 * run: a client's megabytes of them would be in each. A description over 4 KiB (the tool's
 * own, or one in its schema) and tools over 128 KiB together are refused (400) before any
 * run starts, as more than 256 tools are, naming the tool and the limit.
 */
const agUi = agUiServerPerTest();

/** The JSON a tool without parameters is offered with. */
const NO_PARAMETERS = { type: 'object', properties: {} };

const refusal = (answer: AgUiAnswer): string => {
  expect(answer.status).toBe(400);
  return (JSON.parse(answer.text) as { error: string }).error;
};

describe('agUiHandler: the size of frontend tools', () => {
  it('refuses a tool whose description is over 4 KiB (400 naming it and the limit), before any run starts', async () => {
    const served = await agUi.serve({ main: () => ({ text: 'never asked' }) });
    // under the body limit (1 MiB by default; beyond it a 413), yet 900 KB in every model request
    const tools = [{ name: 'small', description: 'fine' }, { name: 'essay', description: 'x'.repeat(900_000) }];
    const answer = await postRunAgentInput(served.url, { threadId: 't-long', runId: 'r1', messages: [user('go')], tools });
    expect(refusal(answer)).toBe('tools[1] ("essay") has a description of 879 KiB; the limit is 4 KiB per tool (it is sent with every model request): shorten it');
    expect(served.fixture.server.requests).toHaveLength(0);
    expect(served.engine.runs.list()).toEqual([]);
  }, 30_000);

  it('counts a description in UTF-8 bytes, as the model request carries it', async () => {
    const served = await agUi.serve({ main: () => ({ text: 'never asked' }) });
    // 1,366 characters, 4,098 bytes: under the limit in characters, over it in bytes
    const tools = [{ name: 'euro', description: '€'.repeat(1_366) }];
    const answer = await postRunAgentInput(served.url, { threadId: 't-utf8', runId: 'r1', messages: [user('go')], tools });
    expect(refusal(answer)).toMatch(/^tools\[0\] \("euro"\) has a description of 5 KiB; the limit is 4 KiB per tool/);
  }, 30_000);

  it('refuses a description over 4 KiB inside a parameter schema (one that fits the 64 KiB schema limit), naming where it is', async () => {
    const served = await agUi.serve({ main: () => ({ text: 'never asked' }) });
    const parameters = { type: 'object', properties: { city: { type: 'string', description: 'y'.repeat(40_000) } } };
    const answer = await postRunAgentInput(served.url, { threadId: 't-inner', runId: 'r1', messages: [user('go')], tools: [{ name: 'weather', description: 'Weather', parameters }] });
    expect(refusal(answer)).toBe('tools[0] ("weather").parameters has a description of 40 KiB at /properties/city/description; the limit is 4 KiB per description: shorten it');
    expect(served.fixture.server.requests).toHaveLength(0);
  }, 30_000);

  it('refuses tools that bring more than 128 KiB together, naming the one that crosses the limit', async () => {
    const served = await agUi.serve({ main: () => ({ text: 'never asked' }) });
    const description = 'z'.repeat(4_000);
    const each = 'tool_00'.length + description.length + JSON.stringify(NO_PARAMETERS).length;
    const crossing = Math.floor(FRONTEND_TOOLS_MAX_BYTES / each); // the index of the first tool past the limit
    const tools = Array.from({ length: crossing + 5 }, (_, i) => ({ name: `tool_${String(i).padStart(2, '0')}`, description }));
    const answer = await postRunAgentInput(served.url, { threadId: 't-total', runId: 'r1', messages: [user('go')], tools });
    expect(refusal(answer)).toBe(
      `tools[${crossing}] ("tool_${crossing}") brings the frontend tools' names, descriptions and parameter schemas past 128 KiB, the limit for all tools of a request together (each model request carries them all): send the ones this turn needs, or shorten them`,
    );
    expect(served.engine.runs.list()).toEqual([]);
  }, 30_000);

  it('takes tools at the limits, and offers the model each description whole', async () => {
    const served = await agUi.serve({ main: () => ({ text: 'done' }) });
    const description = 'd'.repeat(FRONTEND_DESCRIPTION_MAX_BYTES);
    const each = 'tool_00'.length + description.length + JSON.stringify(NO_PARAMETERS).length;
    const count = Math.floor(FRONTEND_TOOLS_MAX_BYTES / each);
    const tools = Array.from({ length: count }, (_, i) => ({ name: `tool_${String(i).padStart(2, '0')}`, description }));
    const answer = await postRunAgentInput(served.url, { threadId: 't-fits', runId: 'r1', messages: [user('go')], tools });
    expect(answer.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', result: 'done' });
    const offered = served.fixture.server.requests[0]!.body.tools?.filter((t) => t.function?.name?.startsWith('tool_')) ?? [];
    expect(offered.map((t) => t.function?.description)).toEqual(tools.map(() => description));
  }, 30_000);
});
