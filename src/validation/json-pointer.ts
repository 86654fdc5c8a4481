/**
 * The keys of a JSON pointer (ajv's `instancePath`, `schemaPath`), escapes undone: the one
 * reading of them for the message formatter (schema-message.ts).
 *
 * @example
 * ```ts
 * pointerParts('/models/fast'); // ['models', 'fast']
 * ```
 */
export function pointerParts(pointer: string): string[] {
  return pointer === '' ? [] : pointer.slice(1).split('/').map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'));
}
