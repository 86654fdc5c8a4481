import { describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import type { JsonObject } from '../../src/events/json.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { assertCheckableParameters } from '../../src/tools/tool-input.js';
import type { Tool } from '../../src/tools/tool.js';
import { schemaWith, watched } from './support/watched-schema.js';

// A tools function answering new tool objects at each run's start (`listTools().map(toTool)`)
// had every schema compiled (ajv, RE2, the cost walk) at every run: 20 tools of 10 properties
// held the event loop some 250 ms per run. An equal schema in a new object now gets the
// verdict of the first by its JSON text. Seen without timing (support/watched-schema.ts).

describe('an equal schema in a new object', () => {
  it('is not compiled again: its verdict is found by its JSON text', () => {
    const first = watched({ type: 'string', pattern: '^a+$' });
    assertCheckableParameters('ReActAgent', { name: 'listed', parameters: schemaWith('verdict_pass', first.schema) });
    // The probe sees a compile: the first object was compiled.
    expect(first.foreignReads.size).toBeGreaterThan(0);
    const again = watched({ type: 'string', pattern: '^a+$' });
    assertCheckableParameters('ReActAgent', { name: 'listed', parameters: schemaWith('verdict_pass', again.schema) });
    expect([...again.foreignReads]).toEqual([]);
  });

  it('is refused again in the same words, without being compiled again; one not plain JSON data is checked as it is', () => {
    const refusal = /^start: the tool "bad": `parameters` has the pattern "\^\(\?!tmp\)", which the linear-time regex engine \(RE2\) cannot run .*Rewrite it without lookahead/;
    const first = watched({ type: 'string', pattern: '^(?!tmp)' });
    expect(() => assertCheckableParameters('start', { name: 'bad', parameters: schemaWith('verdict_fail', first.schema) })).toThrow(refusal);
    const again = watched({ type: 'string', pattern: '^(?!tmp)' });
    expect(() => assertCheckableParameters('start', { name: 'bad', parameters: schemaWith('verdict_fail', again.schema) })).toThrow(refusal);
    expect([...again.foreignReads]).toEqual([]);
    // Not plain JSON data: checked as it is (a `toJSON` could hide from the text what the validator reads).
    const hiding = { type: 'object', properties: { p: { type: 'string', pattern: '^(?!tmp)' } }, toJSON: () => ({ type: 'object' }) } as unknown as JsonObject;
    assertCheckableParameters('start', { name: 'plain', parameters: { type: 'object' } });
    expect(() => assertCheckableParameters('start', { name: 'hiding', parameters: hiding })).toThrow(/has the pattern "\^\(\?!tmp\)"/);
  });

  it('is read only as JSON text at a later run\'s start, when a tools function answers new tools', async () => {
    const reads: Set<string>[] = [];
    const tools = (): Tool[] => {
      const inner = watched({ type: 'integer', minimum: 1 });
      reads.push(inner.foreignReads);
      return [{ name: 'listed', description: 'd', parameters: schemaWith('verdict_run', inner.schema), execute: () => 'ran' }];
    };
    const agent = new ReActAgent({ model: new ScriptedModel([{ text: 'one' }, { text: 'two' }]), tools });
    expect((await agent.call('hi')).text).toBe('one');
    expect((await agent.call('hi')).text).toBe('two');
    expect(reads).toHaveLength(2);
    expect(reads[0]?.size).toBeGreaterThan(0);
    expect([...(reads[1] ?? [])]).toEqual([]);
  });
});
