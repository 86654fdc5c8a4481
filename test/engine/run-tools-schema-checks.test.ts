import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HarnessEngine, ScriptedModel } from '../../src/index.js';
import type { JsonObject } from '../../src/events/json.js';
import type { Tool } from '../../src/tools/tool.js';
import { makeWorkspace, type TestWorkspace } from '../support/tool-context.js';

/** A `Tool` written by hand, its calls checked against `parameters`. */
const handWritten = (name: string, parameters: JsonObject): Tool => ({ name, description: 'd', parameters, execute: () => 'ran' });
/** A pattern RE2 cannot run: its calls would go unchecked. */
const lookahead = (): Tool => handWritten('frontend', { type: 'object', properties: { p: { type: 'string', pattern: '^(?!tmp)' } } });
const refusal = /^start: the tool "frontend": `parameters` has the pattern "\^\(\?!tmp\)", which the linear-time regex engine \(RE2\) cannot run .*Rewrite it without lookahead/;

let ws: TestWorkspace;
let engine: HarnessEngine;
beforeEach(async () => {
  ws = await makeWorkspace();
  engine = new HarnessEngine({ model: new ScriptedModel([{ text: 'done' }]), workspace: ws.dir, homeDir: ws.home, subagentEnabled: false });
});
afterEach(async () => {
  await engine.close();
  await ws.cleanup();
});

// The engine's own `tools` met defineTool's checks when it was made; tools offered for one
// run (an AG-UI client's frontend tools) reached the validator at their calls.
describe('engine.start: a per-run tool whose parameters cannot be checked against', () => {
  it('is refused before the run starts, naming the tool, and leaves no run behind', () => {
    const start = () => engine.start('hi', { tools: [lookahead()] });
    expect(start).toThrow(TypeError);
    expect(start).toThrow(refusal);
    expect(engine.runs.list()).toEqual([]);
  });

  it('is refused by checkRunTools in the same words, and a tool that is no object too', () => {
    expect(() => engine.checkRunTools([lookahead()])).toThrow(refusal);
    const shapeless = { ...lookahead(), parameters: 'object' as unknown as JsonObject };
    expect(() => engine.checkRunTools([shapeless])).toThrow(/^start: the tool "frontend": `parameters` must be a JSON schema object$/);
  });

  it('starts a run with a per-run tool whose schema can be checked against', async () => {
    const ok = handWritten('frontend', { type: 'object', properties: { p: { type: 'string', pattern: '^tmp' } } });
    expect(() => engine.checkRunTools([ok])).not.toThrow();
    const run = engine.start('hi', { tools: [ok] });
    expect((await run.result).text).toBe('done');
  });
});
