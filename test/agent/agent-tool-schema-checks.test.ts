import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { ReActAgent, ScriptedModel } from '../../src/index.js';
import type { JsonObject } from '../../src/events/json.js';
import { defineTool } from '../../src/tools/define-tool.js';
import type { Tool } from '../../src/tools/tool.js';

/** A `Tool` written by hand, its calls checked against `parameters`. */
const handWritten = (parameters: JsonObject): Tool => ({ name: 'nested', description: 'd', parameters, execute: () => 'ran' });
/** A pattern RE2 cannot run: its calls would go unchecked. */
const lookahead = (): Tool => handWritten({ type: 'object', properties: { p: { type: 'string', pattern: '^(?!tmp)' } } });
const refusal = /^ReActAgent: the tool "nested": `parameters` has the pattern "\^\(\?!tmp\)", which the linear-time regex engine \(RE2\) cannot run .*Rewrite it without lookahead/;
const model = () => new ScriptedModel([{ text: 'done' }]);

// `HarnessEngine` refused such a tool when it was made; a `ReActAgent` built directly took it,
// and its calls met the validator (the pattern unenforced) at call time.
describe('ReActAgent: a hand-written tool whose parameters cannot be checked against', () => {
  it('is refused by the constructor when given in a list, in defineTool\'s words', () => {
    expect(() => new ReActAgent({ model: model(), tools: [lookahead()] })).toThrow(TypeError);
    expect(() => new ReActAgent({ model: model(), tools: [lookahead()] })).toThrow(refusal);
    expect(() => new ReActAgent({ model: model(), tools: [{ ...lookahead(), parameters: [] as unknown as JsonObject }] })).toThrow(/^ReActAgent: the tool "nested": `parameters` must be a JSON schema object$/);
  });

  it('ends the run a function chose it for with one abnormal RunEnd naming it, the stream completing', async () => {
    const agent = new ReActAgent({ model: model(), tools: () => [lookahead()] });
    const events = await lastValueFrom(agent.stream('hi').pipe(toArray()));
    expect(events.map((e) => e.type)).toEqual(['RunStart', 'RunEnd']);
    const end = events[1];
    expect(end?.type === 'RunEnd' && end.abnormal).toBe(true);
    expect(end?.type === 'RunEnd' ? end.error : undefined).toMatch(refusal);
  });

  it('ends the run of an async function the same way, for call() too', async () => {
    const agent = new ReActAgent({ model: model(), tools: async () => [lookahead()] });
    const result = await agent.call('hi');
    expect(result.abnormal).toBe(true);
    expect(result.error).toMatch(refusal);
  });
});

describe('ReActAgent: tools whose schemas can be checked against', () => {
  it('runs with a hand-written tool and a defineTool tool, listed or chosen by a function', async () => {
    const hand: Tool = { ...handWritten({ type: 'object', properties: { p: { type: 'string', pattern: '^tmp' } } }), name: 'hand' };
    const defined = defineTool({ name: 'defined', description: 'd', input: { type: 'object', properties: {} }, execute: () => 'ran' });
    expect((await new ReActAgent({ model: model(), tools: [hand, defined] }).call('hi')).text).toBe('done');
    expect((await new ReActAgent({ model: model(), tools: () => [hand, defined] }).call('hi')).abnormal).toBe(false);
  });
});
