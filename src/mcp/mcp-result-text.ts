import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolResult } from '../tools/tool.js';
import { toolError } from '../tools/tool-error.js';
import { HeadTailBuffer } from '../tools/head-tail-buffer.js';

/**
 * The most characters of an MCP answer a model reads, like the built-in `read`'s cap: a
 * server's answer has no limit of its own, and one huge answer would fill the context.
 */
export const MAX_MCP_RESULT_CHARS = 50_000;

/**
 * What the model reads of an MCP tool's answer: its text blocks as they are, one line each
 * for what a chat model cannot take as text (an image, audio, a binary resource, a link),
 * the structured content as JSON when there is nothing else; over
 * {@link MAX_MCP_RESULT_CHARS} its start and end are kept, with a marker saying how much of
 * the middle was left out. A result the server marks
 * `isError` is a failed call (`ERROR: ...`, `ToolCallEnd.error`), which the model reads and
 * the run survives.
 *
 * @example
 * ```ts
 * mcpResultText({ content: [{ type: 'text', text: 'hello' }] }); // 'hello'
 * mcpResultText({ content: [{ type: 'text', text: 'no such file' }], isError: true }); // { text: 'ERROR: no such file', error: 'no such file' }
 * ```
 */
export function mcpResultText(result: CallToolResult): ToolResult | string {
  const blocks = Array.isArray(result.content) ? result.content : [];
  let text = blocks.map(blockText).join('\n');
  if (text === '' && result.structuredContent !== undefined) text = JSON.stringify(result.structuredContent);
  text = cappedMcpText(text);
  if (result.isError === true) return toolError(text || 'the MCP tool reported an error without a message');
  return text;
}

/**
 * `text` cut to {@link MAX_MCP_RESULT_CHARS}, its start and end kept with a marker saying how
 * much was left out between; unchanged when it fits. For whatever of a server's making the
 * model reads: a result's text, and the message of an error the server answered.
 *
 * @example
 * ```ts
 * cappedMcpText('a'.repeat(2_000_000)).length; // about 50,000
 * ```
 */
export function cappedMcpText(text: string): string {
  if (text.length <= MAX_MCP_RESULT_CHARS) return text;
  const buffer = new HeadTailBuffer(Math.ceil(MAX_MCP_RESULT_CHARS / 2), Math.floor(MAX_MCP_RESULT_CHARS / 2));
  buffer.append(text);
  return buffer.toString();
}

type Block = CallToolResult['content'][number];

function blockText(block: Block): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
    case 'audio':
      return `[${block.type} ${block.mimeType}, ${base64Bytes(block.data)} bytes, not shown]`;
    case 'resource_link':
      return `[resource ${block.uri}${block.name ? ` (${block.name})` : ''}]`;
    case 'resource': {
      const resource = block.resource;
      if ('text' in resource && typeof resource.text === 'string') return resource.text;
      const blob = 'blob' in resource && typeof resource.blob === 'string' ? resource.blob : '';
      return `[resource ${resource.uri}${resource.mimeType ? `, ${resource.mimeType}` : ''}, ${base64Bytes(blob)} bytes, not shown]`;
    }
    default:
      return `[${String((block as { type?: unknown }).type)} content, not shown]`;
  }
}

function base64Bytes(data: string): number {
  return Math.floor((data.replace(/=+$/, '').length * 3) / 4);
}
