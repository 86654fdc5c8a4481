import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentDir } from './discover-agents.js';
import { realFolder } from './file-within.js';

/**
 * The folder of the definitions shipped with the package. Resolved next to this module, so
 * it works from `src/` (tests, tsx) and from `dist/` (the build copies the `.md` files).
 *
 * @example
 * ```ts
 * await discoverAgents([{ path: builtinAgentsDir(), source: 'builtin' }]);
 * ```
 */
export function builtinAgentsDir(): string {
  return resolve(fileURLToPath(new URL('./builtin/', import.meta.url)));
}

/** Inputs of {@link standardAgentDirs}. */
export interface StandardAgentDirsOptions {
  /** The workspace root; its `.rxharness/agents/` is scanned. */
  readonly workspace: string;
  /** Extra folders, scanned last (source `dir`); relative ones resolve against the workspace. */
  readonly agentDirs?: readonly string[];
  /** The user's home folder; defaults to `os.homedir()`. */
  readonly home?: string;
}

/**
 * The folders the engine scans, in priority order: built-ins, then
 * `<workspace>/.rxharness/agents/`, then `~/.rxharness/agents/`, then `agentDirs`.
 *
 * When the workspace is the home folder itself (`--workspace ~`; compared as real paths, so a
 * link to the home counts), its `.rxharness/agents/` is the user's own folder: it is scanned
 * once, as the user's (source `user`, trusted as the user's files are), not also as a cloned
 * repository's (source `workspace`, whose definitions may only narrow what the engine allows).
 *
 * @example
 * ```ts
 * const agents = new AgentManager({ dirs: standardAgentDirs({ workspace: process.cwd() }) });
 * ```
 */
export function standardAgentDirs(options: StandardAgentDirsOptions): AgentDir[] {
  const home = options.home ?? homedir();
  const workspace = resolve(options.workspace);
  const homeIsWorkspace = realFolder(resolve(home)) === realFolder(workspace);
  return [
    { path: builtinAgentsDir(), source: 'builtin' },
    // A file of the workspace's folder must be the workspace's: a link out of it is refused (AgentDir.within).
    ...(homeIsWorkspace ? [] : [{ path: join(workspace, '.rxharness', 'agents'), source: 'workspace', within: workspace } satisfies AgentDir]),
    { path: join(home, '.rxharness', 'agents'), source: 'user' },
    ...(options.agentDirs ?? []).map((path): AgentDir => ({ path: resolve(options.workspace, path), source: 'dir' })),
  ];
}
