import { describe, expect, it } from 'vitest';
import { MCP_MAX_RESULT_BLOCKS, readMcpCallAnswer } from '../../src/mcp/mcp-call-result.js';
import { mcpResultText } from '../../src/mcp/mcp-result-text.js';
import { loadMcpSdk, type McpSdk } from '../../src/mcp/mcp-sdk.js';

/** The SDK, its text block schema counting the blocks it checks. */
async function countingSdk(): Promise<{ sdk: McpSdk; checked: () => number }> {
  const sdk = await loadMcpSdk();
  let checked = 0;
  const text = sdk.ContentSchemas.text;
  const counting = new Proxy(text, {
    get: (target, key, receiver) =>
      key === 'safeParse'
        ? (value: unknown) => {
            checked++;
            return target.safeParse(value);
          }
        : Reflect.get(target, key, receiver),
  });
  return { sdk: { ...sdk, ContentSchemas: { ...sdk.ContentSchemas, text: counting } }, checked: () => checked };
}

// A tools/call answer of one 10 MiB stdio line made of 400,000 empty text blocks: each was
// checked against the SDK's schema, on the event loop (some 1.5 s per call), though the model
// reads at most 50,000 characters of it.
describe('an MCP answer of very many content blocks', () => {
  it('is read no further than 10,000 blocks, and the model is told how many were left out', async () => {
    const { sdk, checked } = await countingSdk();
    const content = Array.from({ length: 400_000 }, (_, i) => ({ type: 'text', text: i === 0 ? 'first' : '' }));
    const answer = readMcpCallAnswer(sdk, { content });
    expect(checked()).toBe(10_000);
    if (!('result' in answer)) throw new Error(answer.problem);
    expect(answer.result.content).toHaveLength(10_001);
    const text = String(mcpResultText(answer.result));
    expect(text.startsWith('first\n')).toBe(true);
    expect(text.endsWith('\n[390000 more content blocks left out by rxharness: at most 10000 of an answer are read]')).toBe(true);
  });

  it('up to the bound, is read whole, with no note', async () => {
    const { sdk, checked } = await countingSdk();
    const content = Array.from({ length: MCP_MAX_RESULT_BLOCKS }, () => ({ type: 'text', text: 'x' }));
    const answer = readMcpCallAnswer(sdk, { content });
    expect(checked()).toBe(MCP_MAX_RESULT_BLOCKS);
    if (!('result' in answer)) throw new Error(answer.problem);
    expect(answer.result.content).toHaveLength(MCP_MAX_RESULT_BLOCKS);
    expect(String(mcpResultText(answer.result))).not.toMatch(/left out/);
  });
});
