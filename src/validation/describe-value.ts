/** Names a value for an error message: `the string "12"`, `the number 1.5`, `a list`. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  switch (typeof value) {
    case 'string': {
      const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
      return `the string ${JSON.stringify(shown)}`;
    }
    case 'number':
    case 'bigint':
      return `the number ${String(value)}`;
    case 'boolean':
      return String(value);
    case 'object':
      return value instanceof Date ? 'a date' : 'a mapping';
    default:
      return `a ${typeof value}`;
  }
}

/**
 * Names a value as code would write it, for options given in code: `"yes"`, `5`, `null`,
 * `undefined`, `an array`, `an object`.
 */
export function literalValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return typeof value === 'object' ? 'an object' : typeof value;
}

/** The kind of a value as `typeof` says it, but `null` and `an array` for those: `number`, `object`. */
export function kindOfValue(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}
