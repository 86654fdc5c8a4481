import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentDir } from './discover-agents.js';

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
 * @example
 * ```ts
 * const agents = new AgentManager({ dirs: standardAgentDirs({ workspace: process.cwd() }) });
 * ```
 */
export function standardAgentDirs(options: StandardAgentDirsOptions): AgentDir[] {
  const home = options.home ?? homedir();
  return [
    { path: builtinAgentsDir(), source: 'builtin' },
    // A file of the workspace's folder must be the workspace's: a link out of it is refused (AgentDir.within).
    { path: join(resolve(options.workspace), '.rxharness', 'agents'), source: 'workspace', within: resolve(options.workspace) },
    { path: join(home, '.rxharness', 'agents'), source: 'user' },
    ...(options.agentDirs ?? []).map((path): AgentDir => ({ path: resolve(options.workspace, path), source: 'dir' })),
  ];
}
