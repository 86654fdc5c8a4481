import type { Tool as McpToolInfo } from '@modelcontextprotocol/sdk/types.js';
import type { JsonObject } from '../events/json.js';
import { errorMessage } from '../errors/error-message.js';
import { defineTool } from '../tools/define-tool.js';
import type { Tool } from '../tools/tool.js';
import { toolError } from '../tools/tool-error.js';
import type { McpConnection } from './mcp-connection.js';
import { mcpResultText } from './mcp-result-text.js';
import { mcpSubject } from './mcp-subject.js';

/**
 * The tool an agent holds for one tool of an MCP server, named `name`
 * (`mcp__<server>__<tool>`): the model is offered the server's description and input
 * schema, each call is checked against that schema (ajv) before it goes out, permission
 * rules match its subject ({@link mcpSubject}), and the call's signal reaches the server, so
 * a cancelled call is cancelled there. Whatever happens to the call is a result the model
 * reads; nothing is thrown.
 *
 * @example
 * ```ts
 * const tool = mcpTool('mcp__fs__read_text_file', info, connection);
 * tool.subject?.({ path: '/tmp/a.txt' }); // '/tmp/a.txt'
 * ```
 */
export function mcpTool(name: string, info: McpToolInfo, connection: McpConnection): Tool {
  const schema = modelSchema(info.inputSchema);
  const description = info.description?.trim() || `${info.title ?? info.name} (a tool of the MCP server "${connection.name}")`;
  const subject = mcpSubject(schema);
  const execute = async (args: Record<string, unknown>, { signal }: { signal: AbortSignal }) => {
    try {
      return mcpResultText(await connection.call(info.name, args, signal));
    } catch (e) {
      return toolError(errorMessage(e));
    }
  };
  try {
    return defineTool({ name, description, input: schema, subject, execute });
  } catch {
    // A schema ajv cannot compile (a draft it does not know, a bad keyword): the server
    // checks the arguments itself, so offer the model its schema and check only the shape.
    return defineTool({ name, description, input: { type: 'object' }, modelParameters: schema, subject, execute });
  }
}

/** The input schema as the model is offered it: `$schema` left out (ajv does not know 2020-12's id, models do not need it). */
function modelSchema(input: McpToolInfo['inputSchema']): JsonObject {
  const { $schema: _draft, ...rest } = input as Record<string, unknown>;
  return { ...rest, type: 'object' } as JsonObject;
}
