import type { AgentDefinition } from './agent-definition.js';
import type { AgentDiagnostic } from './agent-diagnostic.js';
import { ACCEPTED_KEYS } from './build-definition.js';
import { choosePrimary, type PrimaryChoice } from './choose-primary.js';
import { isListed, isSubagent } from './definition-role.js';
import { type AgentDir, discoverAgentsSync } from './discover-agents.js';
import { misspeltKeyDiagnostics } from './misspelt-keys.js';
import { normalizeDefinition } from './normalize-definition.js';
import { unknownToolDiagnostics, wideningToolProblem } from './unknown-tool-diagnostics.js';
import { DefinitionError } from './definition-error.js';
import { UnknownAgentError } from './unknown-agent-error.js';
import { ignoredRuleDiagnostics, mayLoosen } from './workspace-trust.js';
import { resolveSkills, withSkills } from './skills/resolve-skills.js';
import type { SkillDir } from './skills/skill.js';
import { SkillReads } from './skills/skill-reads.js';

/** Options of {@link AgentManager}. */
export interface AgentManagerOptions {
  /** Folders to discover, in priority order (see {@link standardAgentDirs}). */
  readonly dirs: readonly AgentDir[];
  /**
   * When given, definitions naming other tools get a diagnostic (and still load), except
   * one whose `disallowedTools` names no tool: it would keep what it was meant to lose, so it
   * is not loaded (see `wideningToolProblem`).
   */
  readonly knownTools?: readonly string[];
  /** Tools the engine turned off (left out of `knownTools`): a definition disallowing one names a real tool, so it loads. */
  readonly disabledTools?: readonly string[];
  /**
   * Trust definitions from the workspace's `.rxharness/agents/` like the others: their
   * `allow` rules apply. Default false: they may only narrow their agent (see {@link AgentManager.mayLoosen}).
   */
  readonly trustWorkspaceAgents?: boolean;
  /** Where a definition's `skills` are looked up, in order (see `standardSkillDirs`); default none. */
  readonly skillDirs?: readonly SkillDir[];
}

/**
 * The catalogue of subagent definitions (`engine.agents`). Discovery runs once, lazily, on
 * the first call that needs it (it reads a few small folders, synchronously). `add`
 * replaces any same-named definition, built-in, discovered or added, whenever it is called.
 * `addIfAbsent` never replaces: called before discovery, it runs discovery first, so a
 * built-in or a file of that name is kept.
 *
 * A definition with `mode: primary` defines the main agent, not a subagent: `get`, `list`
 * and the lists `task` offers leave it out, and {@link AgentManager.primary} returns it.
 * `mode: all` is both. All definitions share one namespace of names.
 *
 * @example
 * ```ts
 * const agents = new AgentManager({ dirs: standardAgentDirs({ workspace: process.cwd() }) });
 * for (const a of agents.list()) console.log(a.name, '-', a.description);
 * const explore = agents.require('explore');
 * ```
 */
export class AgentManager {
  readonly #dirs: readonly AgentDir[];
  readonly #knownTools: readonly string[] | undefined;
  readonly #disabledTools: readonly string[];
  readonly #skillDirs: readonly SkillDir[];
  /** Whether workspace definitions may loosen their agent (the engine's `trustWorkspaceAgents`). */
  readonly trustWorkspaceAgents: boolean;
  readonly #discovered = new Map<string, AgentDefinition>();
  readonly #added = new Map<string, AgentDefinition>();
  readonly #discoveryDiagnostics: AgentDiagnostic[] = [];
  readonly #addedDiagnostics = new Map<string, readonly AgentDiagnostic[]>();
  #discoveredYet = false;
  /**
   * {@link AgentManager.enabled}'s answer until a definition is added or discovered (each is
   * frozen, so nothing else changes it): every step of every run reads the list.
   */
  #enabled: readonly AgentDefinition[] | undefined;

  constructor(options: AgentManagerOptions) {
    this.#dirs = Object.freeze([...options.dirs]);
    this.#knownTools = options.knownTools === undefined ? undefined : Object.freeze([...options.knownTools]);
    this.#disabledTools = Object.freeze([...(options.disabledTools ?? [])]);
    this.trustWorkspaceAgents = options.trustWorkspaceAgents ?? false;
    this.#skillDirs = Object.freeze([...(options.skillDirs ?? [])]);
  }

  /**
   * The system prompt a run of `definition` gets: its own, then each of its `skills` under a
   * `## Skill: <name>` heading. Skills are read from disk now (an edited one counts from the
   * next run); one that cannot be used is left out (its diagnostic says why).
   */
  systemPromptOf(definition: AgentDefinition): string {
    if (!definition.skills?.length) return definition.systemPrompt;
    return withSkills(definition.systemPrompt, resolveSkills(definition, this.#skillDirs, this.trustWorkspaceAgents).skills);
  }

  /**
   * Whether `definition`'s permission rules may loosen its agent: false for a definition
   * from the workspace unless {@link AgentManager.trustWorkspaceAgents}; then its allow
   * rules are ignored (with a diagnostic) and its other rules only narrow.
   */
  mayLoosen(definition: AgentDefinition): boolean {
    return mayLoosen(definition, this.trustWorkspaceAgents);
  }

  /** Discovers the folders now (once; later calls do nothing). Every other method does it when first needed. Never throws. */
  load(): void {
    this.#discover();
  }

  /**
   * Registers a definition, replacing any of the same name (discovered or added).
   *
   * @throws DefinitionError when `definition` is not a valid definition, or its
   *   `disallowedTools` names a tool not in `knownTools`.
   */
  add(definition: AgentDefinition): void {
    const valid = normalizeDefinition(definition);
    const widening = this.#wideningProblem(valid);
    if (widening !== undefined) throw new DefinitionError(valid.file ?? `agent "${valid.name}"`, widening, valid.file === undefined ? {} : { file: valid.file });
    this.#enabled = undefined;
    this.#added.set(valid.name, valid);
    this.#addedDiagnostics.set(valid.name, this.#warningsOf(valid));
  }

  /**
   * Registers a definition unless one of that name exists (added, built-in or discovered;
   * discovery runs now if it has not). Returns whether it was added.
   *
   * @throws DefinitionError when `definition` is not a valid definition.
   */
  addIfAbsent(definition: AgentDefinition): boolean {
    this.#discover();
    if (this.#added.has(definition.name) || this.#discovered.has(definition.name)) return false;
    this.add(definition);
    return true;
  }

  /**
   * Finds any subagent definition by name, hidden and disabled ones included. A definition
   * with `mode: primary` is not a subagent, so it is not found here (see {@link AgentManager.primary}):
   * `task` cannot run it.
   */
  get(name: string): AgentDefinition | undefined {
    this.#discover();
    const definition = this.#added.get(name) ?? this.#discovered.get(name);
    return definition !== undefined && isSubagent(definition) ? definition : undefined;
  }

  /**
   * The definition of the main agent (`mode: primary` or `mode: all`), if there is one; reads
   * the folders first if they were not. There is at most one: definitions added in code come
   * first (in the order they were added), then discovered files in discovery order, and the
   * first enabled candidate wins; every other one gets a diagnostic. The engine uses its
   * prompt, tools, model, steps, settings and rules for its main agent.
   */
  primary(): AgentDefinition | undefined {
    return this.#primaryChoice().primary;
  }

  /** Like {@link AgentManager.get}, but throws {@link UnknownAgentError} (listing the visible agents) when none exists. */
  require(name: string): AgentDefinition {
    const definition = this.get(name);
    if (definition !== undefined) return definition;
    throw new UnknownAgentError(name, this.list().map((agent) => agent.name));
  }

  /** The visible subagent definitions (not hidden, enabled, not `mode: primary`), sorted by name. */
  list(): AgentDefinition[] {
    return this.enabled().filter(isListed);
  }

  /**
   * Every enabled subagent definition, hidden ones included, sorted by name: the agents a
   * `task` call can name (hidden ones are left out of listings, not out of reach; a
   * `mode: primary` definition is not a subagent).
   */
  enabled(): AgentDefinition[] {
    this.#discover();
    if (this.#enabled === undefined) {
      const all = new Map([...this.#discovered, ...this.#added]);
      this.#enabled = Object.freeze(
        [...all.values()].filter((agent) => agent.enabled && isSubagent(agent)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
      );
    }
    // A copy: the caller may sort or change its list.
    return [...this.#enabled];
  }

  /**
   * Files skipped during discovery and why, plus warnings: unknown tools, misspelt keys,
   * ignored rules, skills not found or not loaded, built-ins overridden or not, and primary definitions beyond the first.
   */
  diagnostics(): readonly AgentDiagnostic[] {
    this.#discover();
    return Object.freeze([
      ...this.#discoveryDiagnostics,
      ...[...this.#addedDiagnostics.values()].flat(),
      ...this.#primaryChoice().diagnostics,
    ]);
  }

  #primaryChoice(): PrimaryChoice {
    this.#discover();
    const discovered = [...this.#discovered.values()].filter((definition) => !this.#added.has(definition.name));
    return choosePrimary([...this.#added.values(), ...discovered]);
  }

  #discover(): void {
    if (this.#discoveredYet) return;
    this.#discoveredYet = true;
    this.#enabled = undefined;
    // One set of reads for all: 256 definitions naming the same 32 skills read 32 files, not 8,192.
    const reads = new SkillReads();
    // Refused during discovery, as a file with a misspelt `disallowedTools` key is, so it claims
    // no name: the reason first, then its other warnings.
    const refuse = (definition: AgentDefinition): readonly AgentDiagnostic[] | undefined => {
      const widening = this.#wideningProblem(definition);
      if (widening === undefined) return undefined;
      return [{ file: definition.file ?? definition.name, reason: widening, agent: definition.name }, ...this.#warningsOf(definition, reads)];
    };
    const { definitions, diagnostics } = discoverAgentsSync(this.#dirs, refuse);
    this.#discoveryDiagnostics.push(...diagnostics);
    for (const definition of definitions) {
      this.#discovered.set(definition.name, definition);
      this.#discoveryDiagnostics.push(...this.#warningsOf(definition, reads));
    }
  }

  /** Why some of a definition's skills would not be loaded now (unknown, untrusted, malformed); empty when all would. */
  skillProblems(definition: AgentDefinition): readonly string[] {
    return this.#skillProblems(definition);
  }

  /** With `reads`, one discovery's reads shared by all its definitions. */
  #skillProblems(definition: AgentDefinition, reads?: SkillReads): readonly string[] {
    return definition.skills?.length ? resolveSkills(definition, this.#skillDirs, this.trustWorkspaceAgents, reads).problems : [];
  }

  #wideningProblem(definition: AgentDefinition): string | undefined {
    return this.#knownTools === undefined ? undefined : wideningToolProblem(definition, this.#knownTools, this.#disabledTools);
  }

  #warningsOf(definition: AgentDefinition, reads?: SkillReads): readonly AgentDiagnostic[] {
    const tools = this.#knownTools === undefined ? [] : unknownToolDiagnostics(definition, this.#knownTools, this.#disabledTools);
    const file = definition.file ?? `agent "${definition.name}" (${definition.source})`;
    const skills = this.#skillProblems(definition, reads);
    return [
      ...tools,
      ...misspeltKeyDiagnostics(definition, ACCEPTED_KEYS),
      ...ignoredRuleDiagnostics(definition, this.trustWorkspaceAgents),
      ...skills.map((reason) => ({ file, reason })),
    ];
  }
}
