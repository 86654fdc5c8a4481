import { resolve } from 'node:path';
import type { AgentManager } from '../subagent/agent-manager.js';
import type { AgentDiagnostic } from '../subagent/agent-diagnostic.js';
import { standardAgentDirs } from '../subagent/agent-dirs.js';
import { readDefinitionFile } from '../subagent/discover-agents.js';
import { isInside, realFileWithin, realFolder } from '../subagent/file-within.js';
import { parseAgentMarkdown } from '../subagent/parse-agent-markdown.js';

/** The files of an engine's definition diagnostics, split by whether the engine holds an agent from each. */
export interface DiagnosedFiles {
  /** Files (or folders) from which no agent was loaded: invalid, unreadable, a duplicate name, ignored. */
  readonly notLoaded: readonly string[];
  /** Files whose agent was loaded, with warnings (unknown tools, misspelt keys it could do without...). */
  readonly withWarnings: readonly string[];
}

/**
 * Sorts the files that `diagnostics` name (each once, in their first order) into those the
 * engine loaded an agent from and those it did not. A diagnostic does not say which it is,
 * so this asks the manager: a file is loaded when one of its definitions (enabled, the main
 * agent's, or a disabled one found by its name) comes from it. A file of the workspace's own
 * folder is read as discovery reads it: a symbolic link out of `workspace` is never opened.
 *
 * @example
 * ```ts
 * const { notLoaded } = diagnosedFiles(engine.agents, engine.agents.diagnostics(), engine.workspace);
 * if (notLoaded.length) process.exitCode = 1;
 * ```
 */
export function diagnosedFiles(manager: AgentManager, diagnostics: readonly AgentDiagnostic[], workspace: string): DiagnosedFiles {
  const held = new Set([...manager.enabled(), manager.primary()].map((definition) => definition?.file));
  const files = [...new Set(diagnostics.map((d) => d.file))];
  const read = definitionReader(workspace);
  const loaded = (file: string): boolean => held.has(file) || isDisabledDefinition(manager, file, read);
  return { notLoaded: files.filter((file) => !loaded(file)), withWarnings: files.filter(loaded) };
}

/** Whether `file` holds a valid definition the manager keeps, disabled (`enabled: false` is a choice, not a failure). */
function isDisabledDefinition(manager: AgentManager, file: string, read: (file: string) => string): boolean {
  try {
    const { name } = parseAgentMarkdown(read(file), { source: 'dir', file });
    return manager.get(name)?.file === file;
  } catch {
    // Unreadable, too large, invalid, or a folder: nothing was loaded from it.
    return false;
  }
}

/**
 * Reads a definition file as discovery did: in a folder that must lie within the workspace
 * (the workspace's own `.rxharness/agents/`, `AgentDir.within`), by its real path inside the
 * workspace with no link followed; elsewhere (home, `--agent-dir`), links are followed as
 * discovery follows them. A cloned repository's link to a file (or a named pipe) of yours is
 * otherwise opened here although discovery refused it.
 */
function definitionReader(workspace: string): (file: string) => string {
  const guarded = standardAgentDirs({ workspace }).flatMap((dir) => (dir.within === undefined ? [] : [{ path: resolve(dir.path), within: realFolder(resolve(dir.within)) }]));
  return (file) => {
    const dir = guarded.find((d) => isInside(resolve(file), d.path));
    return dir === undefined ? readDefinitionFile(file) : readDefinitionFile(realFileWithin(file, dir.within), true);
  };
}
