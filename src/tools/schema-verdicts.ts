// How many schemas' verdicts are kept: the tools of a few MCP servers (at most 256 each).
const MAX_VERDICTS = 512;

// How many characters of schema text are kept (some 8 MiB): MCP servers' 64 KiB schemas are rare.
const MAX_VERDICT_CHARS = 4 * 1024 * 1024;

/**
 * Verdicts of `defineTool`'s schema checks, kept by the schema's JSON text: a tools function
 * that answers new but equal objects at each run's start (`(await client.listTools()).map(toTool)`)
 * has each schema compiled and walked once, not at every run (20 tools of 10 properties held the
 * event loop some 250 ms per run). Bounded, least recently used dropped first: at most
 * 512 schemas and 4 Mi characters of their text.
 *
 * @example
 * ```ts
 * const verdicts = new SchemaVerdicts();
 * const text = jsonTextOf(schema); // undefined: not plain JSON data, check it each time
 * if (text !== undefined) verdicts.set(text, undefined); // passed
 * ```
 */
export class SchemaVerdicts {
  // A Map keeps insertion order: a hit is moved to the end, the first key is the least recent.
  private readonly byText = new Map<string, string | undefined>();
  private chars = 0;

  /** Whether a schema of this text was checked (and is still remembered). */
  has(text: string): boolean {
    return this.byText.has(text);
  }

  /** The verdict of a schema of this text: `undefined` when it passed, else the problem. Call after {@link has}. */
  get(text: string): string | undefined {
    const verdict = this.byText.get(text);
    this.byText.delete(text);
    this.byText.set(text, verdict);
    return verdict;
  }

  /** Remembers the verdict on a schema of this text, dropping the least recent past the bounds. */
  set(text: string, verdict: string | undefined): void {
    // One larger than the whole budget would only push every other out.
    if (text.length > MAX_VERDICT_CHARS || this.byText.has(text)) return;
    this.byText.set(text, verdict);
    this.chars += text.length;
    for (const oldest of this.byText.keys()) {
      if (this.byText.size <= MAX_VERDICTS && this.chars <= MAX_VERDICT_CHARS) break;
      this.byText.delete(oldest);
      this.chars -= oldest.length;
    }
  }
}

/**
 * `schema` as JSON text, or `undefined` when it is not plain JSON data all through (a class
 * instance, a `toJSON`, a function, `undefined`, a number JSON cannot write, a cycle): two
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
  return Array.isArray(value) ? proto === Array.prototype : proto === Object.prototype || proto === null;
}
