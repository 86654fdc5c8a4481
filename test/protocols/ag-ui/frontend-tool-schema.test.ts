import { describe, expect, it } from 'vitest';
import { agUiServerPerTest } from '../../support/ag-ui-server-per-test.js';
import type { AgentRoute } from '../../support/delegation-fixture.js';
import { echoTool } from '../../support/test-tools.js';
import { outcomeOf, postRunAgentInput, user } from './ag-ui-requests.js';

/** The JSON schemas of a request's frontend tools: what the model is offered, and what checks a call's arguments. */
const agUi = agUiServerPerTest();

const serve = async (main: AgentRoute): Promise<string> => (await agUi.serve({ main })).url;

describe('agUiHandler: the schemas of frontend tools', () => {
  it('takes a schema that names draft 2020-12 (zod 4 writes one): calls are checked and left to the client, and the model is offered it without $schema', async () => {
    const url = await serve((turn) =>
      turn.step === 1 ? { toolCalls: [{ id: 'call_pick', name: 'pick_color', arguments: { color: 'teal' } }] } : { text: `picked: ${turn.toolResults.at(-1)}` },
    );
    const parameters = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { color: { type: 'string' } },
      required: ['color'],
      additionalProperties: false,
    };
    const tools = [{ name: 'pick_color', description: 'Lets the user pick a color', parameters }];
    const first = await postRunAgentInput(url, { threadId: 't-2020', runId: 'r1', messages: [user('go')], tools });
    expect(outcomeOf(first)).toMatchObject({ pendingToolCallIds: ['call_pick'] });
    const offered = agUi.served!.fixture.server.requests[0]!.body.tools?.find((t) => t.function?.name === 'pick_color')?.function?.parameters;
    expect(offered).toEqual({ type: 'object', properties: { color: { type: 'string' } }, required: ['color'], additionalProperties: false });
    const answer = { id: 'tool-1', role: 'tool', toolCallId: 'call_pick', content: 'teal it is' };
    const second = await postRunAgentInput(url, { threadId: 't-2020', runId: 'r2', messages: [user('go'), answer], tools });
    expect(second.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', result: 'picked: teal it is' });
  }, 30_000);

  it('refuses a schema larger than an MCP tool\'s may be (400), before any run starts', async () => {
    // Compiling the validator of a call's arguments to a 1 MiB schema held the event loop (every run and client) for seconds.
    const url = await serve(() => ({ text: 'never asked' }));
    const properties = Object.fromEntries(Array.from({ length: 3_000 }, (_, i) => [`field_${i}`, { type: 'string' }]));
    const huge = { name: 'fill_form', description: 'Fills a form', parameters: { type: 'object', properties } };
    const answer = await postRunAgentInput(url, { threadId: 't-huge', runId: 'r1', messages: [user('go')], tools: [huge] });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text)).toEqual({ error: expect.stringMatching(/^tools\[0\]\.parameters is an input schema over the limit of 64 KiB/) });
    expect(agUi.served!.fixture.server.requests).toHaveLength(0);
    expect(agUi.served!.engine.runs.list()).toHaveLength(0);
  }, 30_000);

  it.each([
    ['two tools of one name', [{ name: 'pick', description: 'a' }, { name: 'pick', description: 'b' }], /^tools\[1\]\.name "pick" is the name of an earlier tool/],
    ['a delegation tool\'s name', [{ name: 'task', description: 'mine' }], /^tools\[0\]\.name "task" is the name of a delegation tool of the server/],
    // The client's `bash` took the place of the server's for the run: the model's shell commands went to the browser.
    ['a built-in tool\'s name', [{ name: 'pick', description: 'a' }, { name: 'bash', description: 'mine' }], /^start: tools\[1\] is named "bash", like a tool of the engine's own \(.*\bbash\b.*\); name it differently$/],
  ])('refuses %s (400), before any run starts', async (_name, tools, error) => {
    const url = await serve(() => ({ text: 'never asked' }));
    const answer = await postRunAgentInput(url, { threadId: 't-names', runId: 'r1', messages: [user('go')], tools });
    expect(answer.status).toBe(400);
    expect((JSON.parse(answer.text) as { error: string }).error).toMatch(error);
    expect(agUi.served!.fixture.server.requests).toHaveLength(0);
  }, 30_000);

  it('refuses a tool named like an MCP server\'s or a custom tool of the engine (400), and takes one named like a disabled built-in', async () => {
    const { url } = await agUi.serve({ main: () => ({ text: 'never asked' }) }, { engine: { tools: [echoTool('shout')], mcpServers: { fs: { command: 'node', args: ['server.js'] } } } });
    for (const name of ['mcp__fs__read_file', 'shout']) {
      const answer = await postRunAgentInput(url, { threadId: `t-${name}`, runId: 'r1', messages: [user('go')], tools: [{ name, description: 'mine' }] });
      expect(answer.status).toBe(400);
      expect((JSON.parse(answer.text) as { error: string }).error).toMatch(new RegExp(`^start: tools\\[0\\] is named "${name}", like a tool of the engine's own \\(.*mcp__fs__\\*`));
    }
    expect(agUi.served!.fixture.server.requests).toHaveLength(0);
    await agUi.close();
    const disabled = await agUi.serve({ main: () => ({ text: 'done' }) }, { engine: { disabledTools: ['bash'] } });
    const answer = await postRunAgentInput(disabled.url, { threadId: 't-disabled', runId: 'r1', messages: [user('go')], tools: [{ name: 'bash', description: 'the browser\'s own' }] });
    expect(answer.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', result: 'done' });
    expect(disabled.fixture.server.requests[0]!.body.tools?.filter((t) => t.function?.name === 'bash').map((t) => t.function?.description)).toEqual(['the browser\'s own']);
  }, 30_000);
});
