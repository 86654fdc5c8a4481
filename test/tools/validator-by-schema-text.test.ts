import { afterEach, describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import type { JsonObject } from '../../src/events/json.js';
import { jsonSchemaValidator } from '../../src/tools/json-schema-validator.js';
import type { Tool } from '../../src/tools/tool.js';
import { collect, own } from '../support/collect-events.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { openAIModelFor } from '../support/openai-model.js';
import { schemaWith, watched } from './support/watched-schema.js';

// A tools function answering new but equal schema objects at each run's start had each schema's
// check remembered by its JSON text, but the validator a call is checked with was compiled per
// object: every run's first call compiled the schema again. Seen without timing (support/watched-schema.ts).

/** The tool schema of these runs, with `inner` as one property, which calls must give. */
const runSchema = (inner: JsonObject): JsonObject => schemaWith('validator_by_text', inner, 'inner');

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
      return [{ name: 'counted', description: 'd', parameters: runSchema(inner.schema), execute: (args) => `ran ${JSON.stringify(args)}` }];
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

// The validator shared by a schema's text was compiled from the first object seen, and ajv's
// validator keeps references to its values (`const`, an `enum`'s objects): a caller changing
// that object afterwards changed what every equal schema's calls were checked by.
describe('a validator shared by JSON text', () => {
  it('is compiled from a copy: changing the first object after a run changes nothing for an equal schema', async () => {
    const at = () => ({ type: 'object', properties: { validator_by_text_copy: { enum: [{ mode: 'read' }] }, level: { const: { at: 1 } } } });
    const tool = (parameters: JsonObject): Tool => ({ name: 'moded', description: 'd', parameters, execute: () => 'ran' });
    const calls = [{ validator_by_text_copy: { mode: 'write' } }, { validator_by_text_copy: { mode: 'read' }, level: { at: 2 } }];
    server = await FakeOpenAIServer.start({
      replies: [1, 2].flatMap(() => [{ toolCalls: calls.map((args) => ({ name: 'moded', arguments: args })) }, { text: 'done' }]),
    });
    const first = at();
    let schema: JsonObject = first;
    const agent = new ReActAgent({ model: openAIModelFor(server), tools: () => [tool(schema)] });
    const errorsOf = async () => own(await collect(agent.stream('go')), 'ToolCallEnd').map((e) => e.error);
    const before = await errorsOf();
    expect(before).toEqual([expect.stringMatching(/must be equal to one of the allowed values/), expect.stringMatching(/"level" must be equal to constant/)]);
    // The caller changes its first object; the next run's tools function answers an equal new one.
    first.properties.validator_by_text_copy.enum[0]!.mode = 'write';
    first.properties.level.const.at = 2;
    schema = at();
    expect(await errorsOf()).toEqual(before);
  });
});
