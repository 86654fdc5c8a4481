import type { AgentDefinition } from './agent-definition.js';
import type { AgentDiagnostic } from './agent-diagnostic.js';
import { isSubagent } from './definition-role.js';

/**
 * The most characters of names and descriptions the listed definitions of one scanned folder
 * may bring. Each listed agent's name and description go into the `task` and `multitask`
 * descriptions and the main agent's system prompt, sent with every request of the main agent:
 * `MAX_AGENT_FILES` files of a cloned repository, each with the longest description,
 * would make every request megabytes long (and fail it against any context window).
 */
export const MAX_LISTING_CHARS = 32_768;

/** Admits one folder's definitions while their listed names and descriptions fit {@link MAX_LISTING_CHARS}. */
export interface ListingBudget {
  /**
   * Whether `definition` may be added; when not, a diagnostic naming `file` says why and what
   * to do. A hidden, disabled or `mode: primary` definition is not listed, so it costs nothing.
   */
  admits(definition: AgentDefinition, file: string, diagnostics: AgentDiagnostic[]): boolean;
}

/**
 * A fresh {@link ListingBudget} for the folder `root` (named in its diagnostics).
 *
 * @example
 * ```ts
 * const budget = listingBudget('/repo/.rxharness/agents');
 * if (!budget.admits(definition, file, diagnostics)) continue;
 * ```
 */
export function listingBudget(root: string): ListingBudget {
  let used = 0;
  return {
    admits(definition, file, diagnostics) {
      if (!listed(definition)) return true;
      const cost = definition.name.length + definition.description.length;
      if (used + cost <= MAX_LISTING_CHARS) {
        used += cost;
        return true;
      }
      diagnostics.push({
        file,
        reason:
          `is left out: the agents listed before it from ${root} already bring ${used} characters of names and descriptions, ` +
          `sent with every request of the main agent (at most ${MAX_LISTING_CHARS} per folder). ` +
          'Shorten their descriptions, set "hidden: true" on agents that need not be listed, or move some to another folder',
      });
      return false;
    },
  };
}

function listed(definition: AgentDefinition): boolean {
  return definition.enabled && !definition.hidden && isSubagent(definition);
}
