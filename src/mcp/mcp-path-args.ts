/**
 * The argument names that hold paths, compared without case, `_` or `-` (so `filePath`,
 * `file_path` and `FILE-PATH` are one name): a top-level string argument so named, or an
 * array of strings so named, is a path of the call (see docs/mcp.md).
 */
export const MCP_PATH_KEYS: readonly string[] = Object.freeze([
  'path', 'paths', 'file', 'files', 'filepath', 'filepaths', 'filename', 'filenames', 'source', 'sources',
  'destination', 'dest', 'target', 'directory', 'directories', 'dir', 'dirs', 'folder', 'root', 'cwd', 'uri', 'uris',
]);

/** The `format`s of a string schema that make its argument a path whatever its name. */
const PATH_FORMATS = new Set(['path', 'file-path', 'uri', 'uri-reference', 'iri', 'iri-reference']);

const canonical = (name: string): string => name.toLowerCase().replace(/[-_]/g, '');
const KEYS = new Set(MCP_PATH_KEYS);

/**
 * Which top-level arguments of an MCP tool are paths: those named as {@link MCP_PATH_KEYS}
 * says (declared by the schema or not), and those whose schema (or items' schema) has a
 * path or URI `format`. Nested objects are not searched.
 *
 * @example
 * ```ts
 * const isPath = mcpPathArgument({ properties: { out: { type: 'string', format: 'uri' } } });
 * isPath('source_file'); // false
 * isPath('filePath'); // true
 * isPath('out'); // true
 * ```
 */
export function mcpPathArgument(inputSchema: Readonly<Record<string, unknown>>): (name: string) => boolean {
  const properties = inputSchema['properties'];
  const declared = properties !== null && typeof properties === 'object' ? (properties as Record<string, unknown>) : {};
  const byFormat = new Set(Object.keys(declared).filter((name) => hasPathFormat(declared[name])));
  return (name) => KEYS.has(canonical(name)) || byFormat.has(name);
}

/**
 * The most path arguments of one MCP call that are judged (each resolved on disk, its links
 * followed): a call of 100,000 took 71 s and held the event loop for 15.7 s. A call with
 * more is refused, saying to split it.
 */
export const MCP_MAX_PATH_ARGUMENTS = 1_000;

/**
 * The path strings of one call: each argument {@link mcpPathArgument} names, a string or
 * every string of an array; no further than the one past `max` (the caller refuses a call
 * with that many, so the rest need not be read).
 *
 * @example
 * ```ts
 * mcpPathValues({ paths: ['a', 'b'], head: 3 }, (n) => n === 'paths'); // ['a', 'b']
 * ```
 */
export function mcpPathValues(args: Readonly<Record<string, unknown>>, isPath: (name: string) => boolean, max = MCP_MAX_PATH_ARGUMENTS): string[] {
  const values: string[] = [];
  for (const [name, value] of Object.entries(args)) {
    if (!isPath(name)) continue;
    // Not spread: an array of 200,000 overflows the call's arguments.
    for (const v of typeof value === 'string' ? [value] : Array.isArray(value) ? (value as unknown[]) : []) {
      if (typeof v !== 'string') continue;
      values.push(v);
      if (values.length > max) return values;
    }
  }
  return values;
}

function hasPathFormat(schema: unknown): boolean {
  if (schema === null || typeof schema !== 'object') return false;
  const { format, items } = schema as { format?: unknown; items?: unknown };
  return (typeof format === 'string' && PATH_FORMATS.has(format)) || (items !== undefined && hasPathFormat(items));
}
