import type { AgentManager } from '../subagent/agent-manager.js';
import type { AgentDiagnostic } from '../subagent/agent-diagnostic.js';
import { readDefinitionFile } from '../subagent/discover-agents.js';
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
 * agent's, or a disabled one found by its name) comes from it.
 *
 * @example
 * ```ts
 * const { notLoaded } = diagnosedFiles(engine.agents, engine.agents.diagnostics());
 * if (notLoaded.length) process.exitCode = 1;
 * ```
 */
export function diagnosedFiles(manager: AgentManager, diagnostics: readonly AgentDiagnostic[]): DiagnosedFiles {
  const held = new Set([...manager.enabled(), manager.primary()].map((definition) => definition?.file));
  const files = [...new Set(diagnostics.map((d) => d.file))];
  const loaded = (file: string): boolean => held.has(file) || isDisabledDefinition(manager, file);
  return { notLoaded: files.filter((file) => !loaded(file)), withWarnings: files.filter(loaded) };
}

/** Whether `file` holds a valid definition the manager keeps, disabled (`enabled: false` is a choice, not a failure). */
function isDisabledDefinition(manager: AgentManager, file: string): boolean {
  try {
    const { name } = parseAgentMarkdown(readDefinitionFile(file), { source: 'dir', file });
    return manager.get(name)?.file === file;
  } catch {
    // Unreadable, too large, invalid, or a folder: nothing was loaded from it.
    return false;
  }
}
