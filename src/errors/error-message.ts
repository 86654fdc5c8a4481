/**
 * The message of anything thrown: an `Error`'s message, a string as it is, anything else as
 * JSON (or `String()` when it has none). One helper instead of `(e as Error).message` copies
 * that print `undefined` for a thrown string.
 *
 * @example
 * ```ts
 * try { JSON.parse(text); } catch (e) { console.log(errorMessage(e)); }
 * ```
 */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  if (error !== null && typeof error === 'object' && typeof (error as { message?: unknown }).message === 'string') {
    return (error as { message: string }).message; // an error from another realm
  }
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}
