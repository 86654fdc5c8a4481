import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describeValue } from '../validation/describe-value.js';
import { describedIssue } from './mcp-malformed-tools.js';
import type { McpSdk } from './mcp-sdk.js';

/** A `tools/call` answer as read: the result, or what is wrong with it. */
export type McpCallAnswer = { readonly result: CallToolResult } | { readonly problem: string };

/**
 * Reads a server's `tools/call` answer, received as any object (`sdk.AnyResultSchema`). The
 * SDK's `callTool` checks the whole answer against its schema and rejects with a schema error,
 * which looked like a lost connection: one malformed answer (`content: "x"`) or a content
 * block of a newer spec than the SDK's stopped the server for every run. Here each block of a
 * type the SDK knows is checked on its own, a block of another type is kept as it came (the
 * model is told one is there, `mcpResultText`), and anything else malformed is a `problem`
 * that fails the call only.
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
  for (let i = 0; i < content.length; i++) {
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
  return { result: { ...rest.data, content: blocks } };
}
