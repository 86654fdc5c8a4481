import { describe, expect, it } from 'vitest';
import { estimateRequestTokens, estimateTokens } from '../../src/model/estimate-tokens.js';
import type { ToolSpec } from '../../src/model/chat-model.js';
import type { JsonObject } from '../../src/events/json.js';

/** A schema that counts how often it is serialized (JSON.stringify calls `toJSON`). */
function countedSchema(properties: JsonObject): { schema: JsonObject; serialized: () => number } {
  let count = 0;
  const schema = { type: 'object', properties, toJSON: () => (count++, { type: 'object', properties }) } as unknown as JsonObject;
  return { schema, serialized: () => count };
}

const messages = [{ role: 'user' as const, content: 'hello world' }];

describe('estimateRequestTokens', () => {
  it('counts the tools: their names, descriptions and schemas', () => {
    const small: ToolSpec = { name: 'a', description: 'd', parameters: { type: 'object' } };
    const large: ToolSpec = { name: 'a', description: 'd', parameters: { type: 'object', properties: { text: { type: 'string', description: 'x'.repeat(400) } } } };
    const bare = estimateRequestTokens({ messages });
    expect(bare).toBe(estimateTokens(messages));
    expect(estimateRequestTokens({ messages, tools: [small] })).toBeGreaterThan(bare);
    expect(estimateRequestTokens({ messages, tools: [large] }) - estimateRequestTokens({ messages, tools: [small] })).toBeGreaterThanOrEqual(100);
    expect(estimateRequestTokens({ messages, tools: [small, large] })).toBe(estimateRequestTokens({ messages, tools: [large, small] }));
  });

  it("serializes a shared spec's schema once, however many runs offer it in lists of their own", () => {
    const { schema, serialized } = countedSchema({ path: { type: 'string' } });
    const spec: ToolSpec = Object.freeze({ name: 'read', description: 'reads a file', parameters: schema });
    const other: ToolSpec = Object.freeze({ name: 'other', description: 'o', parameters: { type: 'object' } });
    const first = estimateRequestTokens({ messages, tools: [spec, other] });
    for (let run = 0; run < 1_000; run++) expect(estimateRequestTokens({ messages, tools: [spec, other] })).toBe(first);
    expect(estimateRequestTokens({ messages, tools: [other, spec] })).toBe(first);
    expect(serialized()).toBe(1);
    // another spec object of the same schema is a tool of its own, counted (and serialized) as such
    const renamed: ToolSpec = Object.freeze({ name: 'read_file_now', description: 'reads a file', parameters: schema });
    expect(estimateRequestTokens({ messages, tools: [renamed, other] })).toBeGreaterThanOrEqual(first + 2);
    expect(serialized()).toBe(2);
  });
});
