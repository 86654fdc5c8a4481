import { describe, expect, it } from 'vitest';
import { mcpOutputChecks, mcpOutputProblem } from '../../src/mcp/mcp-output-check.js';

const text = { content: [{ type: 'text' as const, text: 'plain' }] };
const withA = { type: 'object' as const, properties: { a: { type: 'string' } }, required: ['a'] };

describe('the output checks of a listing', () => {
  it('a duplicate name is checked by the first tool of that name, the one offered (a later one is left out)', () => {
    const checks = mcpOutputChecks([
      { name: 'q', inputSchema: { type: 'object' } },
      { name: 'q', inputSchema: { type: 'object' }, outputSchema: withA },
    ]);
    expect(mcpOutputProblem(checks, 'q', text)).toBeUndefined();
  });

  it('a tool with an output schema must answer with matching structured content, unless its result is an error', () => {
    const checks = mcpOutputChecks([{ name: 'r', inputSchema: { type: 'object' }, outputSchema: withA }]);
    expect(mcpOutputProblem(checks, 'r', text)).toMatch(/holds no structured content/);
    expect(mcpOutputProblem(checks, 'r', { ...text, isError: true })).toBeUndefined();
    expect(mcpOutputProblem(checks, 'r', { ...text, structuredContent: { a: 1 } })).toMatch(/does not match the tool's output schema/);
    expect(mcpOutputProblem(checks, 'r', { ...text, structuredContent: { a: 'ok' } })).toBeUndefined();
  });
});
