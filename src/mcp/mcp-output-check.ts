import type { CallToolResult, Tool as McpToolInfo } from '@modelcontextprotocol/sdk/types.js';
import type { JsonSchemaValidator } from '@modelcontextprotocol/sdk/validation';
import { mcpOutputValidator } from './mcp-output-validator.js';

/** Each tool's check of its structured output, by the server's name of the tool: those with an output schema only. */
export type McpOutputChecks = ReadonlyMap<string, JsonSchemaValidator<unknown>>;

/**
 * The output checks of a listing's tools ({@link mcpOutputValidator}'s, each compiled when
 * its tool's first result comes). The SDK's client fills such a cache only in its own
 * `listTools`, which fails a whole listing for one malformed tool; tools are listed
 * leniently (`listMcpTools`), so their results are checked here.
 *
 * @example
 * ```ts
 * const checks = mcpOutputChecks(listing.tools);
 * ```
 */
export function mcpOutputChecks(tools: readonly McpToolInfo[]): McpOutputChecks {
  const checks = new Map<string, JsonSchemaValidator<unknown>>();
  // By the first tool of a name, the one offered (a later duplicate is left out with a warning).
  const seen = new Set<string>();
  for (const tool of tools) {
    if (seen.has(tool.name)) continue;
    seen.add(tool.name);
    if (tool.outputSchema) checks.set(tool.name, mcpOutputValidator.getValidator(tool.outputSchema));
  }
  return checks;
}

/**
 * What is wrong with a result of the tool `tool` by its output schema, or undefined when
 * nothing is (or it has none). As the MCP spec says: a tool with an output schema must answer
 * with structured content, unless its result is an error, and that content must match.
 *
 * @example
 * ```ts
 * mcpOutputProblem(checks, 'search', result); // "its structured content does not match the tool's output schema: ..."
 * ```
 */
export function mcpOutputProblem(checks: McpOutputChecks, tool: string, result: CallToolResult): string | undefined {
  const check = checks.get(tool);
  if (check === undefined) return undefined;
  if (!result.structuredContent) return result.isError ? undefined : `the tool has an output schema, yet its result holds no structured content`;
  const checked = check(result.structuredContent);
  return checked.valid ? undefined : `its structured content does not match the tool's output schema: ${checked.errorMessage ?? 'no reason given'}`;
}
