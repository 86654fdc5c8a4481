import { homedir } from 'node:os';
import { posix, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveWorkspacePath } from '../tools/workspace-path.js';

/** Where an MCP server's relative paths start: its working folder when it runs here, none when it is remote. */
export type McpPathBase = { readonly local: true; readonly cwd: string } | { readonly local: false };

// A scheme other than file: (http:, s3:...) names no path here. Two letters at least, so a
// Windows drive (`C:`) is not taken for one.
const OTHER_SCHEME = /^(?!file:)[a-z][a-z0-9+.-]+:/i;

/**
 * Whether a path argument's value names a file: anything but a URI of a scheme other than
 * `file:` (an `https:` URL names no file here). A "URI" whose `..` climbs over its scheme
 * names a file: a server that takes it for a path (as `path.resolve` does) reads
 * `ab:/../secret/key` as `secret/key`, so it is judged as that path, not waved through.
 *
 * @example
 * ```ts
 * namesFile('notes/a.txt'); // true
 * namesFile('https://example.com/a'); // false
 * namesFile('ab:/../secret/key'); // true
 * ```
 */
export function namesFile(value: string): boolean {
  if (!OTHER_SCHEME.test(value)) return true;
  const first = (path: string): string => path.slice(0, path.indexOf('/') >>> 0);
  return first(posix.normalize(value)) !== first(value);
}

/**
 * The subjects rules judge for one path argument of an MCP call: where it really is
 * ({@link mcpPathSubject}) and, when that reads differently, the path as written, normalised
 * (`secret/../secret/key` is `secret/key`): a rule written for what the model sends still
 * binds when the server's folder is not the workspace. A call must pass both. None for a URI
 * of another scheme.
 *
 * @example
 * ```ts
 * await mcpPathSubjects({ local: true, cwd: '/repo' }, '/repo', '/repo/a/../b'); // ['b', '/repo/b']
 * ```
 */
export async function mcpPathSubjects(base: McpPathBase, workspace: string, value: string): Promise<string[]> {
  const resolved = await mcpPathSubject(base, workspace, value);
  if (resolved === undefined) return [];
  const written = await mcpPathSubject({ local: false }, workspace, value);
  return written === undefined || written === resolved ? [resolved] : [resolved, written];
}

/**
 * The permission subject of one path argument of an MCP call, in the form the built-in tools
 * give theirs, so one rule binds both: for a server running on this machine, the path is
 * resolved against the server's working folder (`~` is the home folder, `file:` URIs are
 * paths), `..` is normalised and symbolic links are followed, and the result is relative to
 * the workspace in posix form when inside it, else absolute. A remote server's paths name
 * its own files, which cannot be resolved here: they are only normalised (`a/../b` is `b`).
 * Undefined for a URI of another scheme, which names no file.
 *
 * @example
 * ```ts
 * await mcpPathSubject({ local: true, cwd: '/repo' }, '/repo', 'secret/../secret/key'); // 'secret/key'
 * await mcpPathSubject({ local: false }, '/repo', 'a/../b'); // 'b'
 * ```
 */
export async function mcpPathSubject(base: McpPathBase, workspace: string, value: string): Promise<string | undefined> {
  if (!namesFile(value)) return undefined;
  let path = value;
  if (/^file:/i.test(path)) {
    try {
      path = fileURLToPath(path);
    } catch {
      return value; // not a file URL node can read: judged as written
    }
  }
  if (!base.local) return posix.normalize(path);
  if (path === '~' || path.startsWith('~/')) path = homedir() + path.slice(1);
  return (await resolveWorkspacePath(workspace, resolve(base.cwd, path))).relative;
}
