import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HarnessEngine, ScriptedModel } from '../../src/index.js';
import type { JsonObject } from '../../src/events/json.js';
import { defineTool } from '../../src/tools/define-tool.js';
import type { Tool } from '../../src/tools/tool.js';
import { makeWorkspace, type TestWorkspace } from '../support/tool-context.js';

/** 30 `$defs`, each naming the next in two `allOf` branches: one value checked 2^30 times over. */
const chain = (links: number): JsonObject => {
  const $defs: Record<string, JsonObject> = { [`l${links}`]: { type: 'string' } };
  for (let i = 0; i < links; i++) $defs[`l${i}`] = { allOf: [{ $ref: `#/$defs/l${i + 1}` }, { $ref: `#/$defs/l${i + 1}` }] };
  return { type: 'object', $defs, properties: { x: { $ref: '#/$defs/l0' } } };
};

/** A `Tool` written by hand, checked by ajv against its `parameters` at each call. */
const handWritten = (parameters: JsonObject): Tool => ({ name: 'nested', description: 'd', parameters, execute: () => 'ran' });

let ws: TestWorkspace;
beforeEach(async () => {
  ws = await makeWorkspace();
});
afterEach(() => ws.cleanup());

const engineWith = (tools: readonly Tool[]) => () => new HarnessEngine({ model: new ScriptedModel([{ text: 'done' }]), workspace: ws.dir, homeDir: ws.home, subagentEnabled: false, tools });

// `defineTool` refuses a JSON schema whose checking doubles at every link, or with a pattern
// RE2 cannot run; a hand-written tool with the same schema met only the check of a `$ref`
// looping in place, at its first call: a call could then hold the event loop for minutes.
describe('HarnessEngine: a hand-written tool whose parameters cannot be checked against', () => {
  it('is refused at registration when its $defs name the next twice, 30 links deep, in defineTool\'s words', () => {
    const attempt = engineWith([handWritten(chain(30))]);
    expect(attempt).toThrow(TypeError);
    expect(attempt).toThrow(/^HarnessEngine: the tool "nested": `parameters` would take too long to check calls against: checking one part of a value would apply its subschemas more than 100,000 times .* name each \$def once for each part of a value, or nest fewer unions$/);
    // The same words after the field as defineTool's.
    const input = chain(30);
    expect(() => defineTool({ name: 'nested', description: 'd', input, execute: () => 'ran' })).toThrow(/^defineTool\("nested"\): `input` would take too long to check calls against: checking one part of a value would apply its subschemas more than 100,000 times/);
  });

  it('is refused at registration when its pattern cannot run on RE2, and when it is no object', () => {
    expect(engineWith([handWritten({ type: 'object', properties: { p: { type: 'string', pattern: '^(?!tmp)' } } })])).toThrow(/^HarnessEngine: the tool "nested": `parameters` has the pattern "\^\(\?!tmp\)", which the linear-time regex engine \(RE2\) cannot run .*Rewrite it without lookahead/);
    expect(engineWith([{ ...handWritten({}), parameters: undefined as unknown as JsonObject }])).toThrow(/^HarnessEngine: the tool "nested": `parameters` must be a JSON schema object$/);
  });

  it('is refused at every engine given the same schema object, not only the first', () => {
    const tool = handWritten(chain(30));
    expect(engineWith([tool])).toThrow(/more than 100,000 times/);
    expect(engineWith([tool])).toThrow(/more than 100,000 times/);
  });
});

describe('HarnessEngine: tools whose schemas can be checked against', () => {
  it('takes a hand-written tool with a 5-link chain, and defineTool tools (a zod one\'s own regex checks its calls)', async () => {
    // zod runs its own (JavaScript) regex: its JSON side, only shown to the model, is not judged by RE2.
    const zodTool = defineTool({ name: 'named', description: 'd', input: z.object({ s: z.string().regex(/^(?!tmp)/) }), execute: () => 'ran' });
    const jsonTool = defineTool({ name: 'short', description: 'd', input: chain(5), execute: () => 'ran' });
    const engine = engineWith([{ ...handWritten(chain(5)), name: 'hand' }, zodTool, jsonTool])();
    await engine.close();
  });
});
