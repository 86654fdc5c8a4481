/** What {@link measuredJson} found: the value's JSON size in UTF-8 bytes, or which bound it passed (how far past is not known). */
export type JsonMeasure = { readonly bytes: number } | { readonly over: 'bytes' | 'depth' };

// One list or object being walked: where in it the walk is.
interface Frame {
  readonly items: readonly unknown[];
  next: number;
  readonly depth: number;
}

/**
 * The size of `value` as `JSON.stringify` would write it, in UTF-8 bytes, measured without
 * writing it, without recursion (5,000 levels fit in 30 KB), and stopping as soon as it
 * passes `maxBytes`, or a list or object nests more than `maxDepth` deep (as
 * `valueNestsDeeper` counts). A server's 9.5 MiB `enum` was written out and encoded whole
 * (two copies) to learn it was over 64 KiB; now a list too long for the bound is known by
 * its length, a string by its length, before either is walked or measured. The walk holds a
 * frame per level, not per item, so what it holds is bounded by `maxDepth`.
 *
 * @example
 * ```ts
 * measuredJson({ a: [1, 'é'] }, 100); // { bytes: 14 }: {"a":[1,"é"]}
 * measuredJson({ enum: new Array(1e6).fill(0) }, 65_536); // { over: 'bytes' }
 * ```
 */
export function measuredJson(value: unknown, maxBytes: number, maxDepth = Number.POSITIVE_INFINITY): JsonMeasure {
  let bytes = 0;
  const frames: Frame[] = [];
  // Counts one value: a primitive's bytes, or a container's brackets, separators and keys,
  // its items then walked from a frame of its own.
  const open = (item: unknown, depth: number): boolean => {
    if (typeof item === 'string') bytes += stringBytes(item, maxBytes - bytes);
    else if (item === null || typeof item !== 'object') bytes += String(JSON.stringify(item)).length;
    else if (depth > maxDepth) return false;
    else if (Array.isArray(item)) {
      // Brackets and commas; each item is a byte at least, so a list too long is over at once.
      bytes += 1 + Math.max(item.length, 1);
      if (bytes + item.length <= maxBytes) frames.push({ items: item, next: 0, depth: depth + 1 });
      else bytes = maxBytes + 1;
    } else {
      const keys = Object.keys(item);
      bytes += 1 + Math.max(keys.length, 1);
      const values: unknown[] = [];
      for (let i = 0; i < keys.length && bytes <= maxBytes; i++) {
        // A key, its colon, and its value (a byte at least, counted when walked).
        bytes += stringBytes(keys[i]!, maxBytes - bytes) + 1;
        values.push((item as Record<string, unknown>)[keys[i]!]);
      }
      frames.push({ items: values, next: 0, depth: depth + 1 });
    }
    return true;
  };
  if (!open(value, 1)) return { over: 'depth' };
  for (let frame = frames.at(-1); frame !== undefined && bytes <= maxBytes; frame = frames.at(-1)) {
    if (frame.next === frame.items.length) {
      frames.pop();
      continue;
    }
    if (!open(frame.items[frame.next++], frame.depth)) return { over: 'depth' };
  }
  return bytes <= maxBytes ? { bytes } : { over: 'bytes' };
}

/** A string's bytes as JSON (quoted, escaped, UTF-8); over `room` when its length alone is: UTF-8 takes a byte at least for each UTF-16 unit. */
function stringBytes(text: string, room: number): number {
  if (text.length + 2 > room) return room + 1;
  return Buffer.byteLength(JSON.stringify(text));
}
