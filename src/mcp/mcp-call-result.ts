import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describeValue } from '../validation/describe-value.js';
import { describedIssue } from './mcp-malformed-tools.js';
import type { McpSdk } from './mcp-sdk.js';

/** A `tools/call` answer as read: the result, or what is wrong with it. */
export type McpCallAnswer = { readonly result: CallToolResult } | { readonly problem: string };

/**
 * The most content blocks of one answer read. Each known block is checked against the SDK's
 * schema on the event loop: a 10 MiB answer of 400,000 empty text blocks held it for some
 * 1.5 s, per call, though the model reads at most 50,000 characters of any answer. Those
 * past it are left out, and the model is told how many (a last text block saying so).
 */
export const MCP_MAX_RESULT_BLOCKS = 10_000;

/**
 * Reads a server's `tools/call` answer, received as any object (`sdk.AnyResultSchema`). The
 * SDK's `callTool` checks the whole answer against its schema and rejects with a schema error,
 * which looked like a lost connection: one malformed answer (`content: "x"`) or a content
 * block of a newer spec than the SDK's stopped the server for every run. Here each block of a
 * type the SDK knows is checked on its own, a block of another type is kept as it came (the
 * model is told one is there, `mcpResultText`), and anything else malformed is a `problem`
 * that fails the call only. Blocks past {@link MCP_MAX_RESULT_BLOCKS} are neither checked
 * nor kept: one text block in their place says how many were left out.
 *
 * @example
 * ```ts
 * readMcpCallAnswer(sdk, { content: 'x' }); // { problem: 'its content is the string "x", where a list of content blocks belongs' }
 * ```
 */
export function readMcpCallAnswer(sdk: McpSdk, raw: Record<string, unknown>): McpCallAnswer {
  const content = raw['content'] ?? [];
  if (!Array.isArray(content)) return { problem: `its content is ${describeValue(content)}, where a list of content blocks belongs` };
  // The rest (isError, structuredContent, _meta) as the SDK would have read it.
  const rest = sdk.CallToolResultSchema.safeParse({ ...raw, content: [] });
  if (!rest.success) return { problem: `its result is malformed: ${rest.error.issues.slice(0, 3).map(describedIssue).join('; ')}` };
  const blocks: CallToolResult['content'] = [];
  // Indexed, not mapped: one bad block ends the reading.
  const read = Math.min(content.length, MCP_MAX_RESULT_BLOCKS);
  for (let i = 0; i < read; i++) {
    const block: unknown = content[i];
    const type = typeof block === 'object' && block !== null ? (block as { type?: unknown }).type : undefined;
    if (typeof type !== 'string') return { problem: `its content block ${i + 1} is ${describeValue(block)} with no type, where a content block belongs` };
    const schema = Object.hasOwn(sdk.ContentSchemas, type) ? sdk.ContentSchemas[type as keyof McpSdk['ContentSchemas']] : undefined;
    if (schema === undefined) {
      // A type of a newer spec: only its `type` is read (`[widget content, not shown]`).
      blocks.push(block as CallToolResult['content'][number]);
      continue;
    }
    const checked = schema.safeParse(block);
    if (!checked.success) return { problem: `its content block ${i + 1} (${JSON.stringify(type)}) is malformed: ${checked.error.issues.slice(0, 3).map(describedIssue).join('; ')}` };
    blocks.push(checked.data);
  }
  if (read < content.length) blocks.push({ type: 'text', text: leftOut(content.length - read) });
  return { result: { ...rest.data, content: blocks } };
}

/** The note read in place of the `count` blocks past {@link MCP_MAX_RESULT_BLOCKS}. */
function leftOut(count: number): string {
  return `[${count} more content blocks left out by rxharness: at most ${MCP_MAX_RESULT_BLOCKS} of an answer are read]`;
}
