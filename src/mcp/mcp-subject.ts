/**
 * The argument names that hold what a call is about, best first: the first of them an MCP
 * tool's input schema declares as a string is what permission patterns match.
 */
export const MCP_SUBJECT_KEYS: readonly string[] = Object.freeze([
  'path', 'file_path', 'filePath', 'file', 'filename', 'uri', 'url', 'command', 'cmd', 'query', 'q',
]);

/**
 * The `subject` of a tool made from an MCP tool with this input schema: the call's main
 * string argument (the first of {@link MCP_SUBJECT_KEYS} the schema declares as a string),
 * else, and whenever a call leaves that argument out, the JSON of the call's arguments. So
 * every MCP call has a subject, and a rule with a pattern can always judge it.
 *
 * @example
 * ```ts
 * const subject = mcpSubject({ type: 'object', properties: { head: { type: 'number' }, path: { type: 'string' } } });
 * subject({ path: '/tmp/a.txt', head: 3 }); // '/tmp/a.txt'
 * mcpSubject({ type: 'object', properties: { a: { type: 'number' } } })({ a: 1 }); // '{"a":1}'
 * ```
 */
export function mcpSubject(inputSchema: Readonly<Record<string, unknown>>): (args: Record<string, unknown>) => string {
  const key = mcpSubjectKey(inputSchema);
  return (args) => {
    const value = key === undefined ? undefined : args[key];
    return typeof value === 'string' ? value : JSON.stringify(args);
  };
}

/**
 * The argument {@link mcpSubject} takes for the subject: the first of
 * {@link MCP_SUBJECT_KEYS} the schema declares as a string; undefined when none is.
 *
 * @example
 * ```ts
 * mcpSubjectKey({ type: 'object', properties: { command: { type: 'string' } } }); // 'command'
 * ```
 */
export function mcpSubjectKey(inputSchema: Readonly<Record<string, unknown>>): string | undefined {
  const properties = inputSchema['properties'];
  const declared = properties !== null && typeof properties === 'object' ? (properties as Record<string, unknown>) : {};
  return MCP_SUBJECT_KEYS.find((k) => Object.hasOwn(declared, k) && isStringSchema(declared[k]));
}

function isStringSchema(schema: unknown): boolean {
  if (schema === null || typeof schema !== 'object') return false;
  const type = (schema as { type?: unknown }).type;
  return type === 'string' || (Array.isArray(type) && type.includes('string'));
}
