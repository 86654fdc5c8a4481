import { describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import type { JsonObject } from '../../src/events/json.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { schemaVerdict, type SchemaFinding } from '../../src/tools/schema-policy.js';
import { COSTLY_SCHEMA, INVALID_SCHEMA, LOOKAHEAD_SCHEMA } from '../mcp/support/schema-kinds.js';

// One policy decides what a schema calls cannot wholly be checked against does to its tool,
// for an MCP server's tools and the user's own (mcp-schema-policy.test.ts runs both paths with
// a real server). The user's own schema too much work to compile was compiled (ajv holding the
// event loop) where an MCP server's was left out: now refused where it is written.

const FINDINGS: SchemaFinding[] = ['unenforced-pattern', 'invalid', 'uncheckable'];

describe('the one schema policy', () => {
  it("keeps with a warning or leaves out an MCP server's tool, and refuses the user's own, each with its reason", () => {
    expect(FINDINGS.map((f) => schemaVerdict('mcp-server', f).action)).toEqual(['keep-with-warning', 'keep-with-warning', 'leave-out']);
    expect(FINDINGS.map((f) => schemaVerdict('user-code', f).action)).toEqual(['refuse', 'refuse', 'refuse']);
    for (const source of ['mcp-server', 'user-code'] as const) for (const f of FINDINGS) expect(schemaVerdict(source, f).why.length).toBeGreaterThan(20);
  });
});

describe("the user's own tools, with each of the three schemas", () => {
  const input = (schema: object) => ({ name: 'own', description: 'd', input: structuredClone(schema) as JsonObject, execute: () => 'ran' });

  it('defineTool refuses each, naming the tool and why', () => {
    expect(() => defineTool(input(LOOKAHEAD_SCHEMA))).toThrow(/^defineTool\("own"\): `input` has the pattern "\^\(\?!tmp\)", which the linear-time regex engine \(RE2\) cannot run/);
    expect(() => defineTool(input(INVALID_SCHEMA))).toThrow(/^defineTool\("own"\): `input` is not a valid JSON schema: /);
    expect(() => defineTool(input(COSTLY_SCHEMA))).toThrow(/^defineTool\("own"\): `input` cannot be checked against: its anyOf at \/properties\/v has 65 branches, and at most 64 are compiled here: merge branches/);
  });

  it('a tools function choosing the costly one ends its run abnormally, naming it; a list of it is refused by the constructor', async () => {
    const costly = { name: 'costly', description: 'd', parameters: structuredClone(COSTLY_SCHEMA) as JsonObject, execute: () => 'ran' };
    const refusal = /^ReActAgent: the tool "costly": `parameters` cannot be checked against: its anyOf at \/properties\/v has 65 branches/;
    const result = await new ReActAgent({ model: new ScriptedModel([{ text: 'done' }]), tools: () => [costly] }).call('hi');
    expect(result.abnormal).toBe(true);
    expect(result.error).toMatch(refusal);
    expect(() => new ReActAgent({ model: new ScriptedModel([{ text: 'done' }]), tools: [costly] })).toThrow(refusal);
  });
});
