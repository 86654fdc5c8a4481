/**
 * What Redis holds (JSON text) or a channel brought (an object already parsed) as a plain
 * object, or undefined when it is not one: the first step of reading anything stored, which
 * is never trusted to have the shape we wrote.
 *
 * @example
 * ```ts
 * storedObject('{"a":1}'); // { a: 1 }
 * storedObject('[null]'); // undefined
 * ```
 */
export function storedObject(stored: unknown): Record<string, unknown> | undefined {
  let value = stored;
  if (typeof stored === 'string') {
    try {
      value = JSON.parse(stored);
    } catch {
      return undefined;
    }
  }
  return isPlainObject(value) ? value : undefined;
}

/**
 * A channel message's text as a plain object, or what it is instead, in the words every
 * channel's bad-message warning uses: the first step of reading any message (anyone with
 * access to the Redis can publish anything).
 *
 * @example
 * ```ts
 * messageObject('{"op":"put"}'); // { object: { op: 'put' } }
 * messageObject('garbage'); // { problem: 'it is not JSON' }
 * ```
 */
export function messageObject(text: string): { readonly object: Record<string, unknown> } | { readonly problem: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { problem: 'it is not JSON' };
  }
  return isPlainObject(parsed) ? { object: parsed } : { problem: 'it is not a JSON object' };
}

/** An object that is not null nor an array. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
