import { closeSync, openSync, readSync } from 'node:fs';

/**
 * The text of the file at `path` (UTF-8), or undefined when it holds more than `maxBytes`:
 * read no further than one byte past the limit, so a device that never ends (`/dev/zero`), a
 * pipe, or a file of gigabytes costs at most that much. A pipe that ends (`<(...)`) is read
 * as a file is. Throws as `openSync` and `readSync` do (ENOENT, EISDIR...).
 *
 * @example
 * ```ts
 * const text = readAtMost('mcp.json', 1024 * 1024); // undefined: larger than 1 MiB
 * ```
 */
export function readAtMost(path: string, maxBytes: number): string | undefined {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(maxBytes + 1);
    let filled = 0;
    for (let got = -1; got !== 0 && filled < buffer.length; filled += got) got = readSync(fd, buffer, filled, buffer.length - filled, null);
    return filled > maxBytes ? undefined : buffer.toString('utf8', 0, filled);
  } finally {
    closeSync(fd);
  }
}
