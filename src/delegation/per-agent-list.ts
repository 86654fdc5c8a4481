import type { AgentDefinition } from '../subagent/agent-definition.js';

/**
 * `make` over an agent list, made again only when the list holds other definitions than the
 * last time: definitions are frozen, so the same ones (in the same order) give the same
 * answer. The delegation tools' descriptions are read at every step of every run, and the
 * agent list rarely changes.
 *
 * @example
 * ```ts
 * const description = perAgentList((agents) => taskToolDescription(agents));
 * description(delegation.visibleAgents()); // built once while the agents stay the same
 * ```
 */
export function perAgentList<T>(make: (agents: readonly AgentDefinition[]) => T): (agents: readonly AgentDefinition[]) => T {
  let last: readonly AgentDefinition[] | undefined;
  let made: T;
  return (agents) => {
    if (last === undefined || !sameDefinitions(last, agents)) {
      made = make(agents);
      last = [...agents]; // a caller may change its array later
    }
    return made;
  };
}

function sameDefinitions(a: readonly AgentDefinition[], b: readonly AgentDefinition[]): boolean {
  return a.length === b.length && a.every((definition, i) => definition === b[i]);
}
