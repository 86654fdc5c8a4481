import { afterEach, describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import type { JsonObject } from '../../src/events/json.js';
import { jsonSchemaValidator } from '../../src/tools/json-schema-validator.js';
import type { Tool } from '../../src/tools/tool.js';
import { collect, own } from '../support/collect-events.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { openAIModelFor } from '../support/openai-model.js';

// A tools function answering new but equal schema objects at each run's start had each schema's
// check remembered by its JSON text, but the validator a call is checked with was compiled per
// object: every run's first call compiled the schema again. Seen without timing, as in
// tool-schema-verdicts.test.ts: a compile reads keywords the schema lacks; JSON text reads its own keys.

/** A property schema that records the names read from it that it does not have. */
function watched(schema: JsonObject): { readonly schema: JsonObject; readonly foreignReads: Set<string> } {
  const foreignReads = new Set<string>();
  const note = (key: string | symbol): void => {
    if (typeof key === 'string' && key !== 'toJSON' && !Object.hasOwn(schema, key)) foreignReads.add(key);
  };
  const proxy = new Proxy(schema, {
    get: (target, key, receiver) => (note(key), Reflect.get(target, key, receiver)),
    has: (target, key) => (note(key), Reflect.has(target, key)),
  });
  return { schema: proxy, foreignReads };
}

/** A tool schema unlike any other test's (so no other test compiled it first), with `inner` as one property. */
const schemaWith = (inner: JsonObject): JsonObject => ({ type: 'object', properties: { validator_by_text: { type: 'string' }, inner }, required: ['inner'] });

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("a tools function's equal schema in a new object, called at each run", () => {
  it("is checked with the first one's validator, compiled once; a different schema gets its own", async () => {
    const call = (inner: number) => ({ name: 'counted', arguments: { inner } });
    server = await FakeOpenAIServer.start({
      replies: [
        { toolCalls: [call(1)] },
        { text: 'one' },
        { toolCalls: [call(2), call(0)] },
        { text: 'two' },
        // Run three's schema wants at least 5: 3 passed the first schema, and must not pass this one.
        { toolCalls: [call(3)] },
        { text: 'three' },
      ],
    });
    const minimums = [1, 1, 5];
    const reads: Set<string>[] = [];
    const tools = (): Tool[] => {
      const inner = watched({ type: 'integer', minimum: minimums[reads.length]! });
      reads.push(inner.foreignReads);
      return [{ name: 'counted', description: 'd', parameters: schemaWith(inner.schema), execute: (args) => `ran ${JSON.stringify(args)}` }];
    };
    const agent = new ReActAgent({ model: openAIModelFor(server), tools });
    const errors: (string | undefined)[][] = [];
    for (const answer of ['one', 'two', 'three']) {
      const events = await collect(agent.stream('go'));
      expect(own(events, 'RunEnd')[0]!.abnormal).toBe(false);
      expect(own(events, 'ReasonEnd').at(-1)!.text).toBe(answer);
      errors.push(own(events, 'ToolCallEnd').map((e) => e.error));
    }
    // Compiled: run one's schema, and run three's (another text); never run two's equal one.
    expect(reads.map((r) => r.size > 0)).toEqual([true, false, true]);
    // Run two's calls are checked all the same; run three's by its own schema, not the first's.
    expect(errors[0]).toEqual([undefined]);
    expect(errors[1]![0]).toBeUndefined();
    expect(errors[1]![1]).toMatch(/"inner" must be >= 1/);
    expect(errors[2]![0]).toMatch(/"inner" must be >= 5/);
  });
});

describe('schemas of different texts, or more than their text', () => {
  it('never share a validator', () => {
    const at = (minimum: number) => ({ type: 'object', properties: { validator_by_text_apart: { type: 'integer', minimum } } });
    const one = jsonSchemaValidator(at(1));
    expect(jsonSchemaValidator(at(1))).toBe(one); // an equal one shares it
    const five = jsonSchemaValidator(at(5));
    expect(five).not.toBe(one);
    expect(five({ validator_by_text_apart: 3 }).problems).toMatch(/must be >= 5/);
    expect(one({ validator_by_text_apart: 3 }).problems).toBeUndefined();
    // A keyword JSON does not write (not enumerable) is one ajv reads: not the text's validator.
    const hidden = at(1);
    Object.defineProperty(hidden.properties.validator_by_text_apart, 'maximum', { value: 2, enumerable: false });
    expect(JSON.stringify(hidden)).toBe(JSON.stringify(at(1)));
    const bounded = jsonSchemaValidator(hidden);
    expect(bounded).not.toBe(one);
    expect(bounded({ validator_by_text_apart: 3 }).problems).toMatch(/must be <= 2/);
  });
});
