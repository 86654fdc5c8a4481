import type { JsonObject } from '../../events/json.js';
import { HttpFailure } from '../../http/http-failure.js';
import { MCP_DESCRIPTION_MAX_BYTES } from '../../mcp/mcp-tool-limits.js';

/**
 * The longest description (UTF-8 bytes) a frontend tool, or one of its schema's parts, may
 * have: an MCP tool's is cut there. A client's is refused instead of cut, as too many tools
 * are: it wrote it, and can shorten it.
 */
export const FRONTEND_DESCRIPTION_MAX_BYTES = MCP_DESCRIPTION_MAX_BYTES;

/**
 * The most bytes the frontend tools of one request may bring together: their names,
 * descriptions and parameter schemas (as JSON, UTF-8). Every model request of the run carries
 * them all: 256 tools at the schema limit would be 16 MiB a request, 128 KiB is already some
 * 30,000 tokens.
 */
export const FRONTEND_TOOLS_MAX_BYTES = 131_072;

/** A string's length in UTF-8 bytes (what a model request carries). */
function bytesOf(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** How the request's frontend tools are sized against {@link FRONTEND_TOOLS_MAX_BYTES}, tool by tool. */
export class FrontendToolBudget {
  #total = 0;

  /**
   * Checks one tool's description and the descriptions in its (already size-checked)
   * schema, and counts the tool into the request's total.
   *
   * @throws HttpFailure `400` naming the tool and the limit it breaks.
   */
  add(i: number, name: string, description: string, parameters: JsonObject): void {
    const which = `tools[${i}] ("${name}")`;
    const own = bytesOf(description);
    if (own > FRONTEND_DESCRIPTION_MAX_BYTES) {
      throw new HttpFailure(400, `${which} has a description of ${kib(own)}; the limit is ${kib(FRONTEND_DESCRIPTION_MAX_BYTES)} per tool (it is sent with every model request): shorten it`);
    }
    const inner = longestSchemaDescription(parameters);
    if (inner !== undefined) {
      throw new HttpFailure(400, `${which}.parameters has a description of ${kib(inner.bytes)} at ${inner.path}; the limit is ${kib(FRONTEND_DESCRIPTION_MAX_BYTES)} per description: shorten it`);
    }
    // The schema passed its own size check (64 KiB) first: this stringify is bounded.
    this.#total += bytesOf(name) + own + bytesOf(JSON.stringify(parameters));
    if (this.#total > FRONTEND_TOOLS_MAX_BYTES) {
      throw new HttpFailure(
        400,
        `${which} brings the frontend tools' names, descriptions and parameter schemas past ${kib(FRONTEND_TOOLS_MAX_BYTES)}, the limit for all tools of a request together (each model request carries them all): send the ones this turn needs, or shorten them`,
      );
    }
  }
}

/**
 * The first `description` string of a schema (at any depth) longer than
 * {@link FRONTEND_DESCRIPTION_MAX_BYTES}, with where it is (`/properties/city/description`).
 * Walked without recursion; the schema's depth was checked before.
 */
function longestSchemaDescription(schema: JsonObject): { readonly bytes: number; readonly path: string } | undefined {
  const stack: Array<{ readonly value: unknown; readonly path: string }> = [{ value: schema, path: '' }];
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    for (const [key, child] of Object.entries(value)) {
      const at = `${path}/${key}`;
      if (key === 'description' && typeof child === 'string') {
        const bytes = bytesOf(child);
        // A path through keys a client chose may be long itself: its start says enough.
        if (bytes > FRONTEND_DESCRIPTION_MAX_BYTES) return { bytes, path: at.length > 200 ? `${at.slice(0, 200)}…` : at };
      } else {
        stack.push({ value: child, path: at });
      }
    }
  }
  return undefined;
}

/** Bytes as KiB for a message, rounded up so that over the limit never reads as the limit. */
function kib(bytes: number): string {
  return `${Math.ceil(bytes / 1024)} KiB`;
}
