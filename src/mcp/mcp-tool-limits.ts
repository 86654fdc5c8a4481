import type { JsonObject } from '../events/json.js';
import { MAX_JSON_DEPTH } from '../validation/json-depth.js';
import { measuredJson } from './mcp-json-size.js';

/**
 * The most of an MCP tool's description the model is offered, in UTF-8 bytes. A server's
 * description is sent with every request of every run that holds the tool; a 2 MB one would
 * fill the context window and the bill.
 */
export const MCP_DESCRIPTION_MAX_BYTES = 4096;

/** The largest input schema (its JSON, in UTF-8 bytes) an MCP tool may have; a larger one leaves the tool out. */
export const MCP_SCHEMA_MAX_BYTES = 65_536;

/**
 * The most tools of one MCP server offered (its first, as listed); the rest are left out,
 * with a warning. Every tool is sent to the model with each request and gets a validator
 * compiled when listed: a server listing 10,000 held the event loop for 12 seconds.
 */
export const MCP_MAX_TOOLS = 256;

/**
 * The most bytes of tools one MCP server offers: their descriptions and input schemas (as
 * JSON, UTF-8), summed in its order; the tools past it are left out, with a warning. All are
 * sent to the model with every request: 256 tools of 50 KiB schemas were 13 MB in each.
 */
export const MCP_SERVER_TOOLS_MAX_BYTES = 256 * 1024;

/**
 * What a tool costs against {@link MCP_SERVER_TOOLS_MAX_BYTES}: its description and its input
 * schema's JSON, in UTF-8 bytes.
 *
 * @example
 * ```ts
 * offeredBytes({ description: 'Reads.', parameters: { type: 'object' } }); // 23
 * ```
 */
export function offeredBytes(tool: { readonly description: string; readonly parameters: JsonObject }): number {
  return Buffer.byteLength(tool.description) + Buffer.byteLength(JSON.stringify(tool.parameters));
}

const NOTE = ' [description cut at 4 KiB by rxharness]';
const encoder = new TextEncoder();

/**
 * The description cut at {@link MCP_DESCRIPTION_MAX_BYTES}, between characters, with a note
 * saying so; unchanged when it fits.
 *
 * @example
 * ```ts
 * cappedDescription('x'.repeat(2_000_000)); // 4,096 bytes: 'xxx... [description cut at 4 KiB by rxharness]'
 * ```
 */
export function cappedDescription(description: string): string {
  // A UTF-16 unit is at most 3 UTF-8 bytes: short strings need no measuring; of a long one,
  // one character more than the limit tells whether it is over.
  if (description.length * 3 <= MCP_DESCRIPTION_MAX_BYTES) return description;
  const bytes = encoder.encode(description.slice(0, MCP_DESCRIPTION_MAX_BYTES + 1));
  if (bytes.length <= MCP_DESCRIPTION_MAX_BYTES) return description;
  // Decoding a cut that splits a character ends in U+FFFD: drop it.
  const cut = new TextDecoder().decode(bytes.subarray(0, MCP_DESCRIPTION_MAX_BYTES - encoder.encode(NOTE).length)).replace(/\uFFFD$/, '');
  return `${cut}${NOTE}`;
}

/**
 * Why a schema is too large to offer (`an input schema over the limit of 64 KiB`) or nested
 * too deep, or undefined when it fits. Depth costs no bytes: 5,000 levels are 30 KB, yet
 * deeper than `JSON.stringify`, ajv and the model request's body can go (each throws
 * "Maximum call stack size exceeded"); so it is measured without recursion, to at most
 * {@link MAX_JSON_DEPTH}, as deep as any JSON from outside may nest. The measure stops as
 * soon as either bound is passed ({@link measuredJson}): a 9.5 MiB `enum` was written out
 * and encoded whole to learn it was too large, for each of up to 1,024 tools in one pass.
 *
 * @example
 * ```ts
 * oversizedSchema({ type: 'object' }); // undefined
 * ```
 */
export function oversizedSchema(schema: JsonObject): string | undefined {
  const measure = measuredJson(schema, MCP_SCHEMA_MAX_BYTES, MAX_JSON_DEPTH);
  if ('bytes' in measure) return undefined;
  if (measure.over === 'depth') return `an input schema nested more than ${MAX_JSON_DEPTH} deep (objects and lists within one another)`;
  return `an input schema over the limit of ${MCP_SCHEMA_MAX_BYTES / 1024} KiB`;
}
