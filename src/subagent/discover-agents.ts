import { errnoOf } from '../errors/errno-of.js';
import { resolve } from 'node:path';
import type { AgentDefinition, AgentSource } from './agent-definition.js';
import type { AgentDiagnostic } from './agent-diagnostic.js';
import { DefinitionError } from './definition-error.js';
import { listMarkdownFiles, messageOf } from './list-markdown-files.js';
import { parseAgentMarkdown } from './parse-agent-markdown.js';
import { readBoundedFile } from './read-bounded-file.js';
import { realFileWithin, realFolder } from './file-within.js';
import { type FolderBudget, listingBudget, yamlBudget } from './folder-budget.js';

/**
 * The most bytes a definition file may have. Its body is a system prompt, sent whole with
 * every request of its agent; a workspace file is untrusted, and one of gigabytes (a sparse
 * file costs nothing to plant) would otherwise be read whole, twice, by `rxharness agents`.
 */
export const MAX_DEFINITION_BYTES = 256 * 1024;

/** A folder of definition files and the source its definitions get. */
export interface AgentDir {
  /** The folder to scan; a missing folder is skipped silently. */
  readonly path: string;
  /** The source its definitions get (e.g. `workspace`, `dir`). */
  readonly source: AgentSource;
  /**
   * A folder every definition file must really lie in (`standardAgentDirs` gives the
   * workspace's own folder the workspace): a file there that is a symbolic link leading
   * outside it is not read, with a diagnostic. A cloned repository could otherwise have the
   * engine read, and put into a prompt, a file of yours it names by a link
   * (`.rxharness/agents/a.md -> ../../other-repo/.rxharness/agents/private.md`). Unset, links
   * are followed anywhere (a shared agents folder linked into `~/.rxharness/agents/`).
   */
  readonly within?: string;
}

/** What {@link discoverAgents} found. */
export interface DiscoveryResult {
  /** Valid definitions, one per name (the first, or the file replacing a built-in with `override: true`), in discovery order. */
  readonly definitions: AgentDefinition[];
  /** Files skipped (invalid, unreadable, a duplicate name) and why. */
  readonly diagnostics: AgentDiagnostic[];
}

/**
 * Reads every `*.md` definition in the given folders, in the order given. Within a folder,
 * files come first (sorted by name), then each subfolder's in the same way, at most three
 * levels deep; names starting with `.` are skipped. The first definition of a name wins;
 * later ones become diagnostics naming the winner. One exception: a file with the name of a
 * built-in (a definition from a `builtin` folder) replaces it when it says `override: true`,
 * and is ignored otherwise; either way a diagnostic says what happened. The workspace
 * folder's listed definitions bring at most `MAX_LISTING_CHARS` of names and descriptions; later ones are
 * left out with a diagnostic, as are files past `MAX_FOLDER_YAML_CHARS` of a folder's front
 * matter. Missing folders
 * are skipped silently; invalid or unreadable files become diagnostics. Never throws.
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
 * Why a readable definition must not load (the reason first, with its `agent`, then its other
 * warnings), or `undefined` when it may: `AgentManager` refuses one whose `disallowedTools`
 * names no tool.
 */
export type Refusal = (definition: AgentDefinition) => readonly AgentDiagnostic[] | undefined;

/**
 * {@link discoverAgents}, synchronously: what `AgentManager.addIfAbsent` needs to answer
 * whether a name is taken before anything was awaited. A definition `refuse` refuses is
 * skipped with its diagnostics, as an invalid file is: a later file of its name is loaded.
 */
export function discoverAgentsSync(dirs: readonly AgentDir[], refuse?: Refusal): DiscoveryResult {
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
      const within = dir.within === undefined ? undefined : realFolder(resolve(dir.within));
      // The budgets guard against a cloned repository; your own folders are yours to fill.
      const listing = dir.source === 'workspace' ? listingBudget(root) : undefined;
      const yaml = dir.source === 'workspace' ? yamlBudget(root) : undefined;
      for (const file of listMarkdownFiles(root, diagnostics)) {
        const definition = readDefinition(file, dir.source, diagnostics, yaml, within);
        if (definition === undefined) continue;
        // Before the name is claimed: a refused file takes no name and replaces no built-in.
        const refused = refuse?.(definition);
        if (refused !== undefined) {
          diagnostics.push(...refused);
          continue;
        }
        const winner = winners.get(definition.name);
        if (winner === undefined) {
          if (listing && !listing.admits(definition, file, diagnostics)) continue;
          if (definition.override === true) diagnostics.push({ file, reason: nothingToOverride(definition.name) });
          winners.set(definition.name, definition);
          definitions.push(definition);
        } else if (winner.source === 'builtin' && definition.source !== 'builtin') {
          const clash = builtinClash(definition);
          if (clash.replaces && listing && !listing.admits(definition, file, diagnostics)) continue;
          diagnostics.push({ file, reason: clash.reason });
          if (clash.replaces) {
            winners.set(definition.name, definition);
            definitions[definitions.indexOf(winner)] = definition;
          }
        } else {
          // A workspace's file taking the name of the user's own: said apart, so `run` can warn of it.
          const hides = winner.source === 'workspace' && definition.source === 'user' && winner.file !== undefined;
          diagnostics.push({
            file,
            reason: `agent "${definition.name}" is already defined by ${winner.file ?? winner.source}; the first definition wins, this one is ignored`,
            ...(hides ? { agent: definition.name, hiddenBy: winner.file } : {}),
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

/**
 * What happens to a file with the name of a built-in agent: with `override: true` it replaces
 * the built-in; otherwise it is ignored, since a file that merely happens to share a
 * built-in's name (or a cloned repository's file) should not silently change what `explore`
 * or `general` does. The reason says which, and how to get the other outcome.
 */
function builtinClash(definition: AgentDefinition): { readonly replaces: boolean; readonly reason: string } {
  const name = definition.name;
  if (definition.override === true) {
    return { replaces: true, reason: `replaces the built-in agent "${name}" (override: true)` };
  }
  return {
    replaces: false,
    reason: `agent "${name}" is a built-in agent; this file is ignored. Add "override: true" to its front matter to replace the built-in, or give it another name`,
  };
}

function nothingToOverride(name: string): string {
  return `"override: true" has no effect: there is no built-in agent "${name}" to replace (check the name)`;
}

function readDefinition(file: string, source: AgentSource, diagnostics: AgentDiagnostic[], yaml: FolderBudget<string> | undefined, within?: string): AgentDefinition | undefined {
  let text: string;
  try {
    // Inside `within`, the real path is read with no link followed: one swapped in meanwhile is refused.
    text = within === undefined ? readDefinitionFile(file) : readDefinitionFile(realFileWithin(file, within), true);
  } catch (error) {
    // The system's errors have a code; the others already say what the file is ("is not a regular file").
    const code = errnoOf(error);
    diagnostics.push({ file, reason: code === undefined ? messageOf(error) : `cannot read file: ${messageOf(error)}` });
    return undefined;
  }
  if (yaml && !yaml.admits(text, file, diagnostics)) return undefined;
  try {
    return parseAgentMarkdown(text, { source, file });
  } catch (error) {
    if (!(error instanceof DefinitionError)) diagnostics.push({ file, reason: messageOf(error) });
    // The reason it is not loaded first, then its other warnings (a fatal key hides none).
    else diagnostics.push({ file, reason: error.reason }, ...error.warnings.map((reason) => ({ file, reason })));
    return undefined;
  }
}

/**
 * The text of a definition file: a regular file of at most {@link MAX_DEFINITION_BYTES},
 * read without blocking on a named pipe (see `readBoundedFile`). With `noFollow` (`file` is a
 * real path just checked to lie in the workspace) it is read only if it still is that file:
 * a symbolic link as its last part is refused (`ELOOP`), and so are a folder of it swapped for
 * a link before the open and a file with other hard links (`checkOpenedAt` in `file-within.ts`).
 *
 * @throws Error saying why it cannot be read.
 */
export function readDefinitionFile(file: string, noFollow = false): string {
  return readBoundedFile(file, { maxBytes: MAX_DEFINITION_BYTES, what: 'a definition file', confined: noFollow });
}
