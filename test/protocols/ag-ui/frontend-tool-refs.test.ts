import { describe, expect, it } from 'vitest';
import { agUiServerPerTest } from '../../support/ag-ui-server-per-test.js';
import { outcomeOf, postRunAgentInput, user } from './ag-ui-requests.js';

const agUi = agUiServerPerTest();

/**
 * A frontend tool's schema whose `$ref` loops in place, or points at a URL, was taken, and
 * every call of the tool failed its check (a stack overflow of some 300 ms each, for a loop).
 * It is refused with the request, before any run starts; recursion through a property or an
 * item (a tree) ends with the value, and is kept.
 */
describe('agUiHandler: the $refs of frontend tool schemas', () => {
  it.each([
    ['a schema that is its own $ref', { type: 'object', properties: { x: { type: 'string' } }, $ref: '#' }, /its \$ref "#" comes back to itself without going into a property or an item/],
    ['a property that is its own $ref', { type: 'object', properties: { x: { $ref: '#/properties/x' } } }, /its \$ref "#\/properties\/x" comes back to itself/],
    [
      'two $defs that name each other (through allOf and anyOf too)',
      { type: 'object', $defs: { a: { allOf: [{ $ref: '#/$defs/b' }] }, b: { anyOf: [{ type: 'string' }, { $ref: '#/$defs/a' }] } }, properties: { x: { $ref: '#/$defs/a' } } },
      /its \$ref "#\/\$defs\/[ab]" comes back to itself/,
    ],
    ['a remote $ref', { type: 'object', properties: { x: { $ref: 'http://127.0.0.1:9/schema.json' } } }, /its \$ref "http:\/\/127\.0\.0\.1:9\/schema\.json" \(at \/properties\/x\) is not "#" or a "#\/…" pointer into the schema: no URL is fetched/],
    ['an $id below the root', { type: 'object', properties: { x: { $id: 'http://127.0.0.1:9/x', type: 'string' } } }, /it has an \$id below its root \(at \/properties\/x\)/],
    ['a schema ajv refuses', { type: 'object', properties: { x: { type: 'strin' } } }, /it is no valid JSON schema \(.+\)/],
    // Its calls would go unchecked; `checkRunTools` refused it in a library author's words (`start: the tool "odd": …`, advice about `execute`).
    ['a pattern RE2 cannot run (lookahead)', { type: 'object', properties: { p: { type: 'string', pattern: '^(?!tmp)' } } }, /it has the pattern "\^\(\?!tmp\)", which the linear-time regex engine \(RE2\) cannot run \(.+\); send a schema without it$/],
    ['a patternProperties pattern RE2 cannot run (backreference)', { type: 'object', patternProperties: { '^(a)\\1$': { type: 'string' } } }, /it has the pattern "\^\(a\)\\\\1\$", which the linear-time regex engine \(RE2\) cannot run \(.+\); send a schema without it$/],
  ])('refuses %s (400 naming the tool and why), before any model request', async (_name, parameters, why) => {
    const served = await agUi.serve({ main: () => ({ text: 'never asked' }) });
    const tools = [{ name: 'fine', description: 'a good tool' }, { name: 'odd', description: 'd', parameters }];
    const answer = await postRunAgentInput(served.url, { threadId: 't-refs', runId: 'r1', messages: [user('go')], tools });
    expect(answer.status).toBe(400);
    const { error } = JSON.parse(answer.text) as { error: string };
    expect(error).toMatch(/^tools\[1\] \("odd"\)\.parameters cannot be checked against: /);
    expect(error).toMatch(why);
    expect(served.fixture.server.requests).toHaveLength(0);
    expect(served.engine.runs.list()).toHaveLength(0);
  }, 30_000);

  it('takes local $refs that do not loop and a tree that recurs through its items: calls are checked and left to the client', async () => {
    const served = await agUi.serve({
      main: (turn) => (turn.step === 1 ? { toolCalls: [{ id: 'call_plan', name: 'plan', arguments: { title: 'trip', steps: [{ title: 'pack', steps: [] }] } }] } : { text: `got: ${turn.toolResults.at(-1)}` }),
    });
    const parameters = {
      type: 'object',
      $defs: { title: { type: 'string', minLength: 1 }, step: { type: 'object', properties: { title: { $ref: '#/$defs/title' }, steps: { type: 'array', items: { $ref: '#/$defs/step' } } }, required: ['title'] } },
      properties: { title: { $ref: '#/$defs/title' }, steps: { type: 'array', items: { $ref: '#/$defs/step' } } },
      required: ['title', 'steps'],
    };
    const tools = [{ name: 'plan', description: 'Shows a plan', parameters }];
    const first = await postRunAgentInput(served.url, { threadId: 't-tree', runId: 'r1', messages: [user('go')], tools });
    expect(outcomeOf(first)).toMatchObject({ pendingToolCallIds: ['call_plan'] });
    const answer = { id: 'tool-1', role: 'tool', toolCallId: 'call_plan', content: 'shown' };
    const second = await postRunAgentInput(served.url, { threadId: 't-tree', runId: 'r2', messages: [user('go'), answer], tools });
    expect(second.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', result: 'got: shown' });
  }, 30_000);

  it('refuses a call whose arguments break a local $ref\'s schema, as any bad call: the run goes on', async () => {
    const served = await agUi.serve({
      main: (turn) => (turn.step === 1 ? { toolCalls: [{ id: 'call_bad', name: 'plan', arguments: { title: '' } }] } : { text: 'done' }),
    });
    const parameters = { type: 'object', $defs: { title: { type: 'string', minLength: 1 } }, properties: { title: { $ref: '#/$defs/title' } }, required: ['title'] };
    const answer = await postRunAgentInput(served.url, { threadId: 't-bad', runId: 'r1', messages: [user('go')], tools: [{ name: 'plan', description: 'd', parameters }] });
    expect(answer.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', result: 'done' });
    expect(answer.events.filter((e) => e.type === 'TOOL_CALL_START')).toEqual([]);
  }, 30_000);
});
