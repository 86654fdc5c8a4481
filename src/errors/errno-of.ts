/**
 * The errno `code` (`ENOENT`, `EEXIST`, `EADDRINUSE`...) of anything thrown, or `undefined`
 * when it has none. One reader instead of `(e as NodeJS.ErrnoException).code` casts, which
 * throw on a thrown `null` and let a non-string `code` through.
 *
 * @example
 * ```ts
 * try { await readFile(path, 'utf8'); } catch (e) { if (errnoOf(e) === 'ENOENT') return []; throw e; }
 * ```
 */
export function errnoOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code: unknown = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}
