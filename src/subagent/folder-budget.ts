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
 * Characters taken against a limit: `take(chars)` takes them while those taken so far plus
 * `chars` stay within `limit`; ones that would pass it are refused (and not counted), so a
 * smaller later item may still fit. The one tally of the folder budgets and of the skills'
 * front-matter budget (`SkillYamlBudget`).
 *
 * @example
 * ```ts
 * const tally = charTally(10);
 * tally.take(8); // true
 * tally.take(4); // false (12 > 10); tally.used stays 8
 * ```
 */
export function charTally(limit: number): { take(chars: number): boolean; readonly used: number } {
  let used = 0;
  return {
    take(chars) {
      if (used + chars > limit) return false;
      used += chars;
      return true;
    },
    get used() {
      return used;
    },
  };
}

/**
 * A {@link FolderBudget} over one {@link charTally}: `refusal` gets the refused item's cost and
 * the characters already taken.
 */
function folderBudget<T>(limit: number, cost: (item: T) => number, refusal: (cost: number, used: number) => string): FolderBudget<T> {
  const tally = charTally(limit);
  return {
    admits(item, file, diagnostics) {
      const chars = cost(item);
      if (tally.take(chars)) return true;
      diagnostics.push({ file, reason: refusal(chars, tally.used) });
      return false;
    },
  };
}
