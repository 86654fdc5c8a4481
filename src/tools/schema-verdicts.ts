import type { UnenforcedPattern } from '../validation/validator.js';
import type { ArgsValidator } from './args-validator.js';

// How many schemas are remembered: the tools of a few MCP servers (at most 256 each).
const MAX_SCHEMAS = 512;

// How many characters of schema text are remembered (some 8 MiB): MCP servers' 64 KiB schemas are rare.
const MAX_SCHEMA_CHARS = 4 * 1024 * 1024;

/** A JSON schema's validator of call arguments, compiled, and the patterns it leaves unenforced (RE2 cannot run them). */
export interface CompiledArgsSchema {
  /** Checks one call's arguments against the schema. */
  readonly validate: ArgsValidator;
  /** The schema's patterns RE2 cannot run, with why: not enforced (see `unenforcedPatterns`). */
  readonly unenforced: readonly UnenforcedPattern[];
}

/** What is known of a schema of one JSON text, each part once it is: all equal schemas share it. */
export interface KnownSchema {
  /** The verdict of `defineTool`'s checks (`tool-input.ts`): `problem` absent when it passed. */
  readonly checked?: { readonly problem?: string };
  /** Its compiled validator (`json-schema-validator.ts`). */
  readonly compiled?: CompiledArgsSchema;
}

/**
 * What is known of schemas by their JSON text: the verdict of `defineTool`'s checks and the
 * compiled validator. A tools function that answers new but equal objects at each run's start
 * (`(await client.listTools()).map(toTool)`) has each schema walked and compiled once, not at
 * every run (20 tools of 10 properties held the event loop some 250 ms per run, at the checks
 * and again at each tool's first call). Bounded, least recently used dropped first: at most
 * 512 schemas and 4 Mi characters of their text. Only an object's text is a key: two schemas
 * of different texts never share anything.
 *
 * @example
 * ```ts
 * const text = jsonTextOf(schema); // undefined: not plain JSON data, check and compile it each time
 * if (text !== undefined) knownSchemas.remember(text, { checked: {} }); // passed
 * knownSchemas.recall(text)?.checked; // {}
 * ```
 */
export class KnownSchemas {
  // A Map keeps insertion order: a hit is moved to the end, the first key is the least recent.
  private readonly byText = new Map<string, KnownSchema>();
  private chars = 0;

  /** What is known of a schema of this text (then the most recently used), or `undefined`. */
  recall(text: string): KnownSchema | undefined {
    const known = this.byText.get(text);
    if (known === undefined) return undefined;
    this.byText.delete(text);
    this.byText.set(text, known);
    return known;
  }

  /** Adds `known` to what is known of a schema of this text, dropping the least recent past the bounds. */
  remember(text: string, known: KnownSchema): void {
    // One larger than the whole budget would only push every other out.
    if (text.length > MAX_SCHEMA_CHARS) return;
    const before = this.byText.get(text);
    if (before !== undefined) {
      this.byText.delete(text);
      this.byText.set(text, { ...before, ...known });
      return;
    }
    this.byText.set(text, known);
    this.chars += text.length;
    for (const oldest of this.byText.keys()) {
      if (this.byText.size <= MAX_SCHEMAS && this.chars <= MAX_SCHEMA_CHARS) break;
      this.byText.delete(oldest);
      this.chars -= oldest.length;
    }
  }
}

/** The one memory of schemas by text, for the checks and the compiled validators alike. */
export const knownSchemas = new KnownSchemas();

/**
 * `schema` as JSON text, or `undefined` when it is not plain JSON data all through (a class
 * instance, a `toJSON`, a function, `undefined`, a number JSON cannot write, a cycle, a key
 * that is not enumerable but a `~` marker's, as TypeBox's `~kind`): two
 * schemas of one text are then the same data, read alike by every check and by ajv, so one
 * verdict holds for both. Any other is checked as it is, each time.
 */
export function jsonTextOf(schema: object): string | undefined {
  try {
    return JSON.stringify(schema, function plain(this: unknown, key: string, value: unknown) {
      // `value` is what `toJSON` made of the holder's own value: they differ when it has one.
      if ((this as Readonly<Record<string, unknown>>)[key] !== value || !isPlainJson(value)) throw NOT_PLAIN;
      return value;
    });
  } catch {
    return undefined;
  }
}

const NOT_PLAIN = new Error('not plain JSON data');

function isPlainJson(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value !== 'object') return false;
  const proto: unknown = Object.getPrototypeOf(value);
  if (Array.isArray(value)) return proto === Array.prototype;
  if (proto !== Object.prototype && proto !== null) return false;
  // A key JSON does not write (not enumerable) is still a keyword ajv reads: such a schema is
  // more than its text. TypeBox's markers (`~kind`) are no keyword ajv knows.
  return Object.getOwnPropertyNames(value).every((key) => key.startsWith('~') || Object.prototype.propertyIsEnumerable.call(value, key));
}
