import type { AgentDefinition } from './agent-definition.js';
import type { AgentDiagnostic } from './agent-diagnostic.js';
import { KNOWN_KEYS } from './build-definition.js';
import { type AgentDir, discoverAgentsSync } from './discover-agents.js';
import { misspeltKeyDiagnostics } from './misspelt-keys.js';
import { normalizeDefinition } from './normalize-definition.js';
import { unknownToolDiagnostics } from './unknown-tool-diagnostics.js';
import { UnknownAgentError } from './unknown-agent-error.js';
import { ignoredRuleDiagnostics, mayLoosen } from './workspace-trust.js';

/** Options of {@link AgentManager}. */
export interface AgentManagerOptions {
  /** Folders to discover, in priority order (see {@link standardAgentDirs}). */
  readonly dirs: readonly AgentDir[];
  /** When given, definitions naming other tools get a diagnostic (and still load). */
  readonly knownTools?: readonly string[];
  /**
   * Trust definitions from the workspace's `.rxharness/agents/` like the others: their
   * `allow` rules apply. Default false: they may only narrow their agent (see {@link AgentManager.mayLoosen}).
   */
  readonly trustWorkspaceAgents?: boolean;
}

/**
 * The catalogue of subagent definitions (`engine.agents`). Discovery runs once, lazily, on
 * the first call that needs it (it reads a few small folders, synchronously). `add`
 * replaces any same-named definition, built-in, discovered or added, whenever it is called.
 * `addIfAbsent` never replaces: called before discovery, it runs discovery first, so a
 * built-in or a file of that name is kept.
 *
 * @example
 * ```ts
 * const agents = new AgentManager({ dirs: standardAgentDirs({ workspace: process.cwd() }) });
 * for (const a of await agents.list()) console.log(a.name, '-', a.description);
 * const explore = await agents.require('explore');
 * ```
 */
export class AgentManager {
  readonly #dirs: readonly AgentDir[];
  readonly #knownTools: readonly string[] | undefined;
  /** Whether workspace definitions may loosen their agent (the engine's `trustWorkspaceAgents`). */
  readonly trustWorkspaceAgents: boolean;
  readonly #discovered = new Map<string, AgentDefinition>();
  readonly #added = new Map<string, AgentDefinition>();
  readonly #discoveryDiagnostics: AgentDiagnostic[] = [];
  readonly #addedDiagnostics = new Map<string, readonly AgentDiagnostic[]>();
  #discoveredYet = false;

  constructor(options: AgentManagerOptions) {
    this.#dirs = Object.freeze([...options.dirs]);
    this.#knownTools = options.knownTools === undefined ? undefined : Object.freeze([...options.knownTools]);
    this.trustWorkspaceAgents = options.trustWorkspaceAgents ?? false;
  }

  /**
   * Whether `definition`'s permission rules may loosen its agent: false for a definition
   * from the workspace unless {@link AgentManager.trustWorkspaceAgents}; then its allow
   * rules are ignored (with a diagnostic) and its other rules only narrow.
   */
  mayLoosen(definition: AgentDefinition): boolean {
    return mayLoosen(definition, this.trustWorkspaceAgents);
  }

  /** Discovers the folders once; later calls do nothing. Never rejects. */
  async load(): Promise<void> {
    this.#discover();
  }

  /**
   * Registers a definition, replacing any of the same name (discovered or added).
   *
   * @throws DefinitionError when `definition` is not a valid definition.
   */
  add(definition: AgentDefinition): void {
    const valid = normalizeDefinition(definition);
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

  /** Finds any definition by name, hidden and disabled ones included. */
  async get(name: string): Promise<AgentDefinition | undefined> {
    await this.load();
    return this.#added.get(name) ?? this.#discovered.get(name);
  }

  /** Like {@link AgentManager.get}, but throws {@link UnknownAgentError} (listing the visible agents) when none exists. */
  async require(name: string): Promise<AgentDefinition> {
    const definition = await this.get(name);
    if (definition !== undefined) return definition;
    throw new UnknownAgentError(name, (await this.list()).map((agent) => agent.name));
  }

  /** The visible definitions (not hidden, enabled), sorted by name. */
  async list(): Promise<AgentDefinition[]> {
    return this.listSync();
  }

  /**
   * {@link AgentManager.list}, synchronously (reading the folders first if they were not):
   * for what must be built without waiting, like a tool description read at every step.
   */
  listSync(): AgentDefinition[] {
    return this.enabledSync().filter((agent) => !agent.hidden);
  }

  /**
   * Every enabled definition, hidden ones included, sorted by name: the agents a `task` call
   * can name (hidden ones are left out of listings, not out of reach).
   */
  enabledSync(): AgentDefinition[] {
    this.#discover();
    const all = new Map([...this.#discovered, ...this.#added]);
    return [...all.values()].filter((agent) => agent.enabled).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** Files skipped during discovery and why, plus warnings: unknown tools, misspelt keys, ignored rules. */
  async diagnostics(): Promise<readonly AgentDiagnostic[]> {
    await this.load();
    return Object.freeze([...this.#discoveryDiagnostics, ...[...this.#addedDiagnostics.values()].flat()]);
  }

  #discover(): void {
    if (this.#discoveredYet) return;
    this.#discoveredYet = true;
    const { definitions, diagnostics } = discoverAgentsSync(this.#dirs);
    this.#discoveryDiagnostics.push(...diagnostics);
    for (const definition of definitions) {
      this.#discovered.set(definition.name, definition);
      this.#discoveryDiagnostics.push(...this.#warningsOf(definition));
    }
  }

  #warningsOf(definition: AgentDefinition): readonly AgentDiagnostic[] {
    const tools = this.#knownTools === undefined ? [] : unknownToolDiagnostics(definition, this.#knownTools);
    return [...tools, ...misspeltKeyDiagnostics(definition, KNOWN_KEYS), ...ignoredRuleDiagnostics(definition, this.trustWorkspaceAgents)];
  }
}
