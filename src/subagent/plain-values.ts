/** Whether a value is a plain key/value object (what a YAML mapping loads as). */
export function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * A list of names as a definition gives one (a list, or a comma string: `read, grep, glob`),
 * already checked against its schema: names trimmed, empty ones dropped, repeats removed.
 */
export function toNameList(value: string | readonly string[]): readonly string[] {
  const names = (typeof value === 'string' ? value.split(',') : value).map((name) => name.trim());
  return Object.freeze([...new Set(names.filter((name) => name !== ''))]);
}
