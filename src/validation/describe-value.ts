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
