import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { AgentDefinition, AgentSource } from './agent-definition.js';
import type { AgentDiagnostic } from './agent-diagnostic.js';
import { DefinitionError } from './definition-error.js';
import { listMarkdownFiles, messageOf } from './list-markdown-files.js';
import { parseAgentMarkdown } from './parse-agent-markdown.js';

/** A folder of definition files and the source its definitions get. */
export interface AgentDir {
  /** The folder to scan; a missing folder is skipped silently. */
  readonly path: string;
  /** The source its definitions get (e.g. `workspace`, `dir`). */
  readonly source: AgentSource;
}

/** What {@link discoverAgents} found. */
export interface DiscoveryResult {
  /** Valid definitions, first of each name only, in discovery order. */
  readonly definitions: AgentDefinition[];
  /** Files skipped (invalid, unreadable, a duplicate name) and why. */
  readonly diagnostics: AgentDiagnostic[];
}

/**
 * Reads every `*.md` definition in the given folders, in the order given. Within a folder,
 * files come first (sorted by name), then each subfolder's in the same way, at most three
 * levels deep; names starting with `.` are skipped. The first definition of a name wins;
 * later ones become diagnostics naming the winner. Missing folders are skipped silently;
 * invalid or unreadable files become diagnostics. Never throws.
 *
 * @example
 * ```ts
 * const { definitions, diagnostics } = await discoverAgents([
 *   { path: builtinAgentsDir(), source: 'builtin' },
 *   { path: '/repo/.rxharness/agents', source: 'workspace' },
 * ]);
 * ```
 */
export async function discoverAgents(dirs: readonly AgentDir[]): Promise<DiscoveryResult> {
  return discoverAgentsSync(dirs);
}

/**
 * {@link discoverAgents}, synchronously: what `AgentManager.addIfAbsent` needs to answer
 * whether a name is taken before anything was awaited.
 */
export function discoverAgentsSync(dirs: readonly AgentDir[]): DiscoveryResult {
  const definitions: AgentDefinition[] = [];
  const diagnostics: AgentDiagnostic[] = [];
  const winners = new Map<string, AgentDefinition>();
  const seenRoots = new Set<string>();
  for (const dir of dirs) {
    try {
      const root = resolve(dir.path);
      // The same folder listed twice would only produce duplicate-name noise.
      if (seenRoots.has(root)) continue;
      seenRoots.add(root);
      for (const file of listMarkdownFiles(root, diagnostics)) {
        const definition = readDefinition(file, dir.source, diagnostics);
        if (definition === undefined) continue;
        const winner = winners.get(definition.name);
        if (winner === undefined) {
          winners.set(definition.name, definition);
          definitions.push(definition);
        } else {
          diagnostics.push({
            file,
            reason: `agent "${definition.name}" is already defined by ${winner.file ?? winner.source}; the first definition wins, this one is ignored`,
          });
        }
      }
    } catch (error) {
      // Discovery must never take the engine down; a bug here is still worth a report.
      diagnostics.push({ file: String(dir.path), reason: `discovery failed: ${messageOf(error)}` });
    }
  }
  return { definitions, diagnostics };
}

function readDefinition(file: string, source: AgentSource, diagnostics: AgentDiagnostic[]): AgentDefinition | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    diagnostics.push({ file, reason: `cannot read file: ${messageOf(error)}` });
    return undefined;
  }
  try {
    return parseAgentMarkdown(text, { source, file });
  } catch (error) {
    diagnostics.push({ file, reason: error instanceof DefinitionError ? error.reason : messageOf(error) });
    return undefined;
  }
}
