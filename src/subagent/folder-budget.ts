import type { AgentDefinition } from './agent-definition.js';
import type { AgentDiagnostic } from './agent-diagnostic.js';
import { isListed } from './definition-role.js';
import { frontMatterChars } from './front-matter.js';

/**
 * The most characters of names and descriptions the listed definitions of one scanned folder
 * may bring. Each listed agent's name and description go into the `task` and `multitask`
 * descriptions and the main agent's system prompt, sent with every request of the main agent:
 * `MAX_AGENT_FILES` files of a cloned repository, each with the longest description,
 * would make every request megabytes long (and fail it against any context window).
 */
export const MAX_LISTING_CHARS = 32_768;

/**
 * The most characters of front matter one scanned folder's files may bring to the YAML
 * loader. Discovery is synchronous (it must answer before anything is awaited), and loading
 * YAML can cost seconds per megabyte (a long flow list): 256 planted files of 256 KiB of front
 * matter each held the process (and every session of a `serve`) for half a minute. A real
 * folder's front matters take a kilobyte or two each.
 */
export const MAX_FOLDER_YAML_CHARS = 512 * 1024;

/** Admits one folder's items while the characters they bring, tallied, fit the budget's limit. */
export interface FolderBudget<T> {
  /** Whether `item` (from `file`) may be taken; when not, a diagnostic names `file` and what to do. */
  admits(item: T, file: string, diagnostics: AgentDiagnostic[]): boolean;
}

/**
 * A fresh {@link FolderBudget} for the definitions listed from the folder `root` (named in its
 * diagnostics), within {@link MAX_LISTING_CHARS}. A hidden, disabled or `mode: primary`
 * definition is not listed, so it costs nothing.
 *
 * @example
 * ```ts
 * const budget = listingBudget('/repo/.rxharness/agents');
 * if (!budget.admits(definition, file, diagnostics)) continue;
 * ```
 */
export function listingBudget(root: string): FolderBudget<AgentDefinition> {
  return folderBudget(
    MAX_LISTING_CHARS,
    (definition) => (isListed(definition) ? definition.name.length + definition.description.length : 0),
    (_cost, used) =>
      `is left out: the agents listed before it from ${root} already bring ${used} characters of names and descriptions, ` +
      `sent with every request of the main agent (at most ${MAX_LISTING_CHARS} per folder). ` +
      'Shorten their descriptions, set "hidden: true" on agents that need not be listed, or move some to another folder',
  );
}

/**
 * A fresh {@link FolderBudget} for the front matters (of file texts) the folder `root` (named
 * in its diagnostics) brings to the YAML loader, within {@link MAX_FOLDER_YAML_CHARS}.
 *
 * @example
 * ```ts
 * const yaml = yamlBudget('/repo/.rxharness/agents');
 * if (yaml.admits(text, file, diagnostics)) parseAgentMarkdown(text, { source: 'workspace', file });
 * ```
 */
export function yamlBudget(root: string): FolderBudget<string> {
  return folderBudget(
    MAX_FOLDER_YAML_CHARS,
    frontMatterChars,
    (chars) =>
      `is not read: its front matter (${chars} characters) and those read before it from ${root} ` +
      `pass the ${MAX_FOLDER_YAML_CHARS} characters of front matter one folder may hold. ` +
      'Shorten the front matters (the system prompt belongs in the body, after the closing "---"), or move some files to another folder',
  );
}

/**
 * The shared tally: an item is taken while the characters taken so far plus its `cost` stay
 * within `limit`; one that would pass it is refused (and not counted), so a smaller later one
 * may still fit. `refusal` gets the refused item's cost and the characters already taken.
 */
function folderBudget<T>(limit: number, cost: (item: T) => number, refusal: (cost: number, used: number) => string): FolderBudget<T> {
  let used = 0;
  return {
    admits(item, file, diagnostics) {
      const chars = cost(item);
      if (used + chars <= limit) {
        used += chars;
        return true;
      }
      diagnostics.push({ file, reason: refusal(chars, used) });
      return false;
    },
  };
}
