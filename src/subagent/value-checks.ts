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

/** Whether a value is a plain key/value object (what a YAML mapping loads as). */
export function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Reads a tool list: a list of names or a comma string (`read, grep, glob`). Names are
 * trimmed, empty ones dropped, repeats removed. Returns an error reason instead of throwing
 * so the caller can add where the value came from.
 */
export function toToolList(key: string, value: unknown): readonly string[] | string {
  if (typeof value !== 'string' && !Array.isArray(value)) {
    return `"${key}" must be a list of tool names or a comma-separated string, got ${describeValue(value)}`;
  }
  const items: readonly unknown[] = typeof value === 'string' ? value.split(',') : value;
  const names: string[] = [];
  for (const [index, item] of items.entries()) {
    if (typeof item !== 'string') {
      return `"${key}" item ${index + 1} must be a tool name (a string), got ${describeValue(item)}`;
    }
    const name = item.trim();
    if (name !== '' && !names.includes(name)) names.push(name);
  }
  return Object.freeze(names);
}
