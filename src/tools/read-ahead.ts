/**
 * Yields `[item, await read(item)]` in the order of `items`, with up to `window` reads in
 * flight ahead of the consumer, so a search waits on the disk once per window rather than
 * once per file. Stopping early leaves at most `window` reads to finish on their own.
 *
 * @example
 * ```ts
 * for await (const [file, text] of readAhead(files, (f) => readTextAt(f, max), 8)) {
 *   if (enough) break;
 * }
 * ```
 */
export async function* readAhead<T, R>(items: readonly T[], read: (item: T) => Promise<R>, window: number): AsyncGenerator<[T, R]> {
  const pending: Promise<R>[] = [];
  let next = 0;
  for (let index = 0; index < items.length; index += 1) {
    while (next < items.length && next < index + window) pending.push(read(items[next++]!));
    yield [items[index]!, await pending.shift()!];
  }
}
