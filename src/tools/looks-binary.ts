import { open } from 'node:fs/promises';

/** How much of a file is sniffed for binary content (what git and grep look at, roughly). */
export const BINARY_SNIFF_BYTES = 8000;

/**
 * Whether bytes look like binary data rather than text: a NUL byte in the first
 * {@link BINARY_SNIFF_BYTES} bytes, the heuristic git and GNU grep use.
 *
 * @example
 * ```ts
 * looksBinary(Buffer.from('hello\n')); // false
 * looksBinary(Buffer.from([0x89, 0x50, 0x00])); // true
 * ```
 */
export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}

/**
 * Whether the file at `absolutePath` looks binary, reading only its first bytes.
 *
 * @example
 * ```ts
 * if (await fileLooksBinary('/repo/logo.png')) return toolError('binary file');
 * ```
 */
export async function fileLooksBinary(absolutePath: string): Promise<boolean> {
  const handle = await open(absolutePath, 'r');
  try {
    const buffer = Buffer.alloc(BINARY_SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, BINARY_SNIFF_BYTES, 0);
    return looksBinary(buffer.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}
