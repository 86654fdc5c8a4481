/** A header name as `Headers` takes one (an HTTP token); any other makes `Headers` throw, which its own methods do for us. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** An empty `Headers`, whose `get` and `has` refuse an invalid name with `Headers`' own error. */
const NONE = new Headers();
type Entries = ReturnType<Headers['entries']>;
type Names = ReturnType<Headers['keys']>;

/** Whitespace `Headers` strips from either end of a value. */
const EDGE_WHITESPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;

/** `value` as `Headers` keeps it: HTTP whitespace off both ends. */
function normalized(value: string): string {
  const first = value.charCodeAt(0);
  const last = value.charCodeAt(value.length - 1);
  const edge = (code: number): boolean => code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
  return value.length > 0 && (edge(first) || edge(last)) ? value.replace(EDGE_WHITESPACE, '') : value;
}

/**
 * A response's headers over Node's raw list (`message.rawHeaders`: `[name, value, ...]`, which
 * the message keeps anyway) instead of a `Headers` built for every response and kept as long
 * as its body streams (its sorted list and entries, about 1 KiB a live reply:
 * docs/performance.md, "Stop 59: memory per live run"). `get` and `has` read the list; the
 * rest (iteration, `getSetCookie`, inspection) builds a `Headers` for the call and drops it,
 * as the `openai` client iterates once a response; the first change (`set`, `append`,
 * `delete`) builds the one the headers are from then on. Each answers what a `Headers` with
 * the raw list appended in order would answer: names matched in any case, repeated values
 * joined with `, ` (a `cookie` with `; `), `set-cookie` apart when iterating, invalid names
 * refused with `Headers`' own errors. An `instanceof Headers` (its prototype's is `Headers`'), but
 * not made by `Headers`' constructor, whose empty list and map (0.4 KiB) it would keep unused.
 *
 * @internal
 */
export class RawHeaders implements Headers {
  readonly #raw: readonly string[];
  /** The headers once changed: from then on every method is this one's. */
  #changed: Headers | undefined;

  constructor(raw: readonly string[]) {
    this.#raw = raw;
  }

  get(name: string): string | null {
    if (this.#changed) return this.#changed.get(name);
    if (!TOKEN.test(name)) return NONE.get(name); // throws as Headers does
    const lower = name.toLowerCase();
    const raw = this.#raw;
    let joined: string | null = null;
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const key = raw[i]!;
      if (key.length !== lower.length || key.toLowerCase() !== lower) continue;
      const value = normalized(raw[i + 1]!);
      joined = joined === null ? value : `${joined}${lower === 'cookie' ? '; ' : ', '}${value}`;
    }
    return joined;
  }

  has(name: string): boolean {
    if (this.#changed) return this.#changed.has(name);
    if (!TOKEN.test(name)) return NONE.has(name); // throws as Headers does
    const lower = name.toLowerCase();
    const raw = this.#raw;
    for (let i = 0; i + 1 < raw.length; i += 2) if (raw[i]!.length === lower.length && raw[i]!.toLowerCase() === lower) return true;
    return false;
  }

  set(name: string, value: string): void {
    this.#changing().set(name, value);
  }

  append(name: string, value: string): void {
    this.#changing().append(name, value);
  }

  delete(name: string): void {
    this.#changing().delete(name);
  }

  getSetCookie(): string[] {
    return this.#view().getSetCookie();
  }

  forEach(callback: (value: string, key: string, parent: Headers) => void, thisArg?: unknown): void {
    for (const [name, value] of this.#view()) callback.call(thisArg, value, name, this);
  }

  entries(): Entries {
    return this.#view().entries();
  }

  keys(): Names {
    return this.#view().keys();
  }

  values(): Names {
    return this.#view().values();
  }

  [Symbol.iterator](): Entries {
    return this.#view()[Symbol.iterator]();
  }

  /** As a `Headers` prints (the openai client's debug log prints a response's headers). */
  [Symbol.for('nodejs.util.inspect.custom')](_depth: number, options: object, inspect: (value: unknown, options: object) => string): string {
    return inspect(this.#view(), options);
  }

  /** The headers as a `Headers`: the changed one, else one built for this call only. */
  #view(): Headers {
    return this.#changed ?? this.#built();
  }

  #changing(): Headers {
    return (this.#changed ??= this.#built());
  }

  #built(): Headers {
    const headers = new Headers();
    const raw = this.#raw;
    for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
    return headers;
  }
}

// `Headers` in the prototype chain (`instanceof Headers`, its `Symbol.toStringTag`) without
// `extends`: a subclass would have to run `Headers`' constructor. Every method of `Headers` is
// overridden above, so none of its own, which need an instance it made, is reached.
Object.setPrototypeOf(RawHeaders.prototype, Headers.prototype);
