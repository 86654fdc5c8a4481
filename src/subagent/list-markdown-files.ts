import { errnoOf } from '../errors/errno-of.js';
import { type Dirent, readdirSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentDiagnostic } from './agent-diagnostic.js';
import { errorMessage } from '../errors/error-message.js';

/**
 * How deep discovery looks: files directly in a scanned folder are depth 1, files in its
 * subfolders depth 2, one level further depth 3. Deeper files are not read.
 */
export const MAX_AGENT_DEPTH = 3;

/**
 * How many definition files, and folders, one scanned root may bring. Every definition's
 * name and description go into the delegation tools' description, sent with each request of
 * the main agent: a workspace that planted 10,000 made every request megabytes long.
 */
export const MAX_AGENT_FILES = 256;

/**
 * The `*.md` files under `root`, at most {@link MAX_AGENT_DEPTH} deep, skipping names that
 * start with `.`. Order is deterministic: within a folder its files come first (sorted by
 * name, by code unit), then each subfolder's files in the same way. Each folder is read once:
 * a link to one already read (a loop, or many links to one folder) is a diagnostic. A missing
 * root gives no files and no diagnostic; anything else that cannot be read becomes a diagnostic.
 * At most {@link MAX_AGENT_FILES} files are listed, and as many folders read; what is left
 * out is counted in one diagnostic. Synchronous: discovery reads a few small folders once per
 * engine (see `AgentManager`).
 */
export function listMarkdownFiles(root: string, diagnostics: AgentDiagnostic[]): string[] {
  const files: string[] = [];
  const state = { files, diagnostics, read: new Set<string>(), left: 0 };
  walk(root, 1, state);
  if (state.left > 0) {
    diagnostics.push({ file: root, reason: `holds more than ${MAX_AGENT_FILES} definition files or folders; ${state.left} were left out (the first ${MAX_AGENT_FILES} files, in order, are read)` });
  }
  return files;
}

/** What one listing gathers, and the real paths of the folders it has read. */
interface Walk {
  readonly files: string[];
  readonly diagnostics: AgentDiagnostic[];
  readonly read: Set<string>;
  /** Files and folders left out past {@link MAX_AGENT_FILES}. */
  left: number;
}

function walk(dir: string, depth: number, state: Walk): void {
  const { files, diagnostics } = state;
  if (state.read.size >= MAX_AGENT_FILES) {
    state.left++;
    return;
  }
  let entries: Dirent[];
  try {
    // The depth limit alone bounds a loop, not a fan: a folder of n links to itself would be
    // read n² times (and each of its files with it) in a workspace that planted them.
    const real = realpathSync(dir);
    if (state.read.has(real)) {
      diagnostics.push({ file: dir, reason: `leads to a folder already read (${real}); it is not read again` });
      return;
    }
    state.read.add(real);
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    const code = errnoOf(error);
    if (code === 'ENOENT') return;
    const reason = code === 'ENOTDIR' ? 'is not a folder' : `cannot read folder: ${messageOf(error)}`;
    diagnostics.push({ file: dir, reason });
    return;
  }
  const folders: string[] = [];
  for (const entry of entries.sort((a, b) => compare(a.name, b.name))) {
    if (entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    const kind = kindOf(entry, path);
    if (kind === 'file' && entry.name.endsWith('.md')) {
      if (files.length < MAX_AGENT_FILES) files.push(path);
      else state.left++;
    }
    else if (kind === 'folder' && depth < MAX_AGENT_DEPTH) folders.push(path);
    else if (kind === 'broken' && entry.name.endsWith('.md')) {
      diagnostics.push({ file: path, reason: 'is a broken symbolic link' });
    }
  }
  for (const folder of folders) walk(folder, depth + 1, state);
}

// Symbolic links are followed (a shared agents folder is often linked in); the depth limit
// keeps a link loop from running away.
function kindOf(entry: Dirent, path: string): 'file' | 'folder' | 'broken' | 'other' {
  if (entry.isFile()) return 'file';
  if (entry.isDirectory()) return 'folder';
  if (!entry.isSymbolicLink()) return 'other';
  try {
    const target = statSync(path);
    return target.isFile() ? 'file' : target.isDirectory() ? 'folder' : 'other';
  } catch {
    return 'broken';
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The message of an unknown thrown value. */
export function messageOf(error: unknown): string {
  return errorMessage(error);
}
