import type { ApprovalGrants } from '../agent/approval-grants.js';
import type { AgentScope, TaskWiring } from '../agent/agent-scope.js';
import { ReActAgent } from '../agent/react-agent.js';
import type { ChatModel } from '../model/chat-model.js';
import type { TokenBudget } from '../model/token-budget.js';
import type { ApprovalHandler } from '../permission/approval.js';
import type { SessionStore } from '../session/session-store.js';
import type { AgentDefinition } from '../subagent/agent-definition.js';
import type { AgentManager } from '../subagent/agent-manager.js';
import { isDelegationTool } from '../subagent/delegation-tool-names.js';
import { narrowTools, type ToolNarrowing } from '../subagent/narrow-tools.js';
import type { McpServers } from '../mcp/mcp-servers.js';
import type { Tool } from '../tools/tool.js';
import { delegationInstructions, environmentFacts } from './delegation-prompts.js';
import type { AgentSpec } from './delegation-types.js';
import { mcpRunTools, toolWarningsOf } from './mcp-run-tools.js';
import { perAgentList } from './per-agent-list.js';
import { narrowedSettings, type SettingWarning } from './narrowed-settings.js';

/** Role prompts kept by instructions text; see `AgentFactory#roleOf`. */
const MAX_ROLES = 64;

/** What every agent of a tree shares. */
export interface AgentFactoryOptions {
  readonly agents: AgentManager;
  /** Every non-delegation tool, by name (built-ins and custom tools, minus disabled ones). */
  readonly toolbox: ReadonlyMap<string, Tool>;
  readonly models: Readonly<Record<string, ChatModel>>;
  readonly sessions: SessionStore;
  readonly workspace: string;
  readonly approve: ApprovalHandler | undefined;
  readonly grants: ApprovalGrants;
  readonly toolTimeoutMs: number;
  /** How long an approval waits for its answer (absent: until the run ends). */
  readonly approvalTimeoutMs?: number;
  readonly maxDepth: number;
  /** The engine's `maxSteps`: a child's step limit when its definition sets none (never its parent's). */
  readonly maxSteps: number;
  readonly poolSize: number;
  readonly disabledTools: readonly string[];
  /** The engine's `tokenBudget`: the main agent's, and a background task's that has no parent budget and none of its own. */
  readonly tokenBudget: number | undefined;
  /** Makes a new tree's budget pool (absent: counted in memory); see `AgentScope.newBudget`. */
  readonly newBudget?: (limit: number) => TokenBudget;
  /** The delegation tools (`task`, `multitask`, `generate`) of an agent that holds them. */
  readonly delegationTools: (spec: AgentSpec) => Tool[];
  /** The engine's MCP servers, when it has any: their tools join an agent's at its run start. */
  readonly mcp?: McpServers;
}

/**
 * Makes the agents of a delegation tree: the scope an agent runs with (its tools from the
 * toolbox plus its own delegation tools, its role prompt with the workspace facts and, for
 * an agent that delegates, the agent list), and the spec of a child a definition describes
 * (narrowed tools, its model, its permission layer).
 */
export class AgentFactory {
  /**
   * The delegation tools of each spec object, made at its first run: they hold no state of
   * a run (each call gets its run's context, signal and task tracker) and read the agent list
   * live, so every run of one spec (the main agent's) shares them instead of remaking them.
   */
  readonly #delegationTools = new WeakMap<AgentSpec, readonly Tool[]>();
  /**
   * A delegating spec's prompt over the agent list, remade only when the list changes (see
   * perAgentList) or its role does (the workspace facts hold the date).
   */
  readonly #delegatingPrompts = new WeakMap<AgentSpec, { readonly role: string; readonly prompt: (agents: readonly AgentDefinition[]) => string }>();

  /** The role prompt last made for each instructions text, with the facts it was made with; see `#roleOf`. */
  readonly #roles = new Map<string, { readonly facts: string; readonly role: string }>();

  /** What each spec's runs start by warning about: settings of its workspace definition that were not applied. */
  readonly #settingWarnings = new WeakMap<AgentSpec, readonly SettingWarning[]>();

  constructor(private readonly o: AgentFactoryOptions) {}

  /** A ReActAgent for a spec. */
  build(spec: AgentSpec, hooks: Pick<AgentScope, 'promptPrefix' | 'onRun'> = { promptPrefix: undefined, onRun: undefined }): ReActAgent {
    const scope = this.scopeOf(spec, hooks);
    return ReActAgent.ofScope(spec.name, () => scope);
  }

  /** The scope a spec's agent runs with. */
  scopeOf(spec: AgentSpec, hooks: Pick<AgentScope, 'promptPrefix' | 'onRun'>): AgentScope {
    const o = this.o;
    const delegates = spec.toolNames.some(isDelegationTool);
    // Delegation and MCP tools are made per run; the toolbox holds the rest. Every other name
    // is in it: in-process they are narrowed from the main agent's, and a worker refuses a job
    // naming tools it lacks before building it (`fromWire`).
    const base = spec.toolNames.flatMap((n) => o.toolbox.get(n) ?? []);
    const own = (resolved: AgentSpec): readonly Tool[] => (delegates ? this.#delegationToolsOf(resolved) : []);
    const mcp = o.mcp;
    const role = this.#roleOf(spec.instructions);
    const told = this.#settingWarnings.get(spec) ?? [];
    return {
      name: spec.name,
      model: spec.model,
      modelSettings: spec.settings,
      maxSteps: spec.maxSteps,
      // Read when each run starts: the agent list may have grown (the tools read it at every step).
      instructions: delegates ? () => this.#delegatingPromptOf(spec, role)(o.agents.list()) : () => role,
      tools: mcp ? () => mcpRunTools(mcp, spec, base, own) : delegates ? () => [...base, ...own(spec)] : () => base,
      ...(mcp || told.length ? { toolWarnings: (tools: readonly Tool[]) => (mcp ? [...told, ...toolWarningsOf(tools)] : told) } : {}),
      sessions: o.sessions,
      workspace: o.workspace,
      permissions: spec.policy,
      approve: spec.approve ?? o.approve,
      grants: o.grants,
      toolTimeoutMs: o.toolTimeoutMs,
      ...approvalTimeout(spec.approvalTimeoutMs ?? o.approvalTimeoutMs),
      tokenBudget: spec.tokenBudget,
      ...(o.newBudget ? { newBudget: o.newBudget } : {}),
      task: spec.task,
      ...this.compactionOf(spec),
      ...hooks,
    };
  }

  /**
   * An agent's role prompt with today's workspace facts: one string for every run of the same
   * instructions on the same day, not a new copy per run (a child's is about 2 KiB, held for
   * as long as it runs, and compared and serialized at each of its requests).
   */
  #roleOf(instructions: string): string {
    const facts = environmentFacts(this.o.workspace);
    const known = this.#roles.get(instructions);
    if (known?.facts === facts) return known.role;
    const role = `${instructions}\n\n${facts}`;
    // Instructions written per run (a caller's own) would fill the map: past this it starts over.
    if (this.#roles.size >= MAX_ROLES) this.#roles.clear();
    this.#roles.set(instructions, { facts, role });
    return role;
  }

  #delegatingPromptOf(spec: AgentSpec, role: string): (agents: readonly AgentDefinition[]) => string {
    let made = this.#delegatingPrompts.get(spec);
    if (made?.role !== role) {
      made = { role, prompt: perAgentList((agents) => `${role}\n\n${delegationInstructions(agents, this.o.poolSize)}`) };
      this.#delegatingPrompts.set(spec, made);
    }
    return made.prompt;
  }

  #delegationToolsOf(spec: AgentSpec): readonly Tool[] {
    let tools = this.#delegationTools.get(spec);
    if (tools === undefined) {
      tools = Object.freeze(this.o.delegationTools(spec));
      this.#delegationTools.set(spec, tools);
    }
    return tools;
  }

  /**
   * Who summarises the agent's session when it is compacted: the `compaction` definition
   * (built in, or a file that overrides it), read when the scope is made; its model when it
   * names one the engine has, else the agent's.
   */
  private compactionOf(spec: AgentSpec): Pick<AgentScope, 'compaction'> {
    const definition = this.o.agents.get('compaction');
    if (!definition) return {};
    let model: ChatModel | undefined;
    try {
      model = definition.model === undefined ? undefined : this.modelOf(definition, spec.model);
    } catch {
      model = undefined; // an unknown model: the agent's own writes the summary
    }
    // A workspace compaction.md only narrows, as any definition does (unwarned: its summaries are no run of their own).
    const { settings } = narrowedSettings(definition, model ?? spec.model, this.o.agents.mayLoosen(definition));
    return { compaction: { prompt: definition.systemPrompt, ...(settings ? { settings } : {}), ...(model ? { model } : {}) } };
  }

  /** The spec of a child of `parent` running `definition`; throws when its model is unknown. */
  childSpec(parent: AgentSpec, definition: AgentDefinition, task?: TaskWiring): AgentSpec {
    const depth = parent.depth + 1;
    const model = this.modelOf(definition, parent.model);
    const { settings, warnings } = narrowedSettings(definition, model, this.o.agents.mayLoosen(definition));
    const toolNames = narrowTools({
      parentTools: parent.toolNames,
      tools: definition.tools,
      disallowedTools: definition.disallowedTools,
      disabledTools: this.o.disabledTools,
      canDelegate: depth < this.o.maxDepth,
    });
    return this.#told(warnings, {
      name: definition.name,
      depth,
      model,
      // With its skills (read now, so an edited SKILL.md counts from this run).
      instructions: this.o.agents.systemPromptOf(definition),
      toolNames,
      // A workspace definition is untrusted input: its rules only narrow unless the engine trusts it.
      policy: parent.policy.child(definition.permissionRules, { narrowOnly: !this.o.agents.mayLoosen(definition) }),
      maxSteps: stepLimit(definition.maxSteps, this.o.maxSteps, this.o.agents.mayLoosen(definition)),
      // The child's own settings only: a parent's never leak into its children.
      ...(settings ? { settings } : {}),
      // Its own budget, within the parent's pool (TaskWiring.parentBudget, a background task's
      // too); only a task without a parent budget falls back on the engine's.
      ...ownBudget(definition.tokenBudget ?? (task?.background && !task.parentBudget ? this.o.tokenBudget : undefined)),
      ...laterNarrowing(parent, definition),
      ...(task ? { task } : {}),
      // A subtree whose timeout came with its task (from the engine that delegated it) keeps it.
      ...approvalTimeout(parent.approvalTimeoutMs),
      // And so does one whose approvals go to its own handler (a worker's job: see `AgentSpec.approve`).
      ...(parent.approve ? { approve: parent.approve } : {}),
    });
  }

  /**
   * The spec of a definition run directly as a child of `parent` (`engine.agent(name)`,
   * `createSubagent`, `start({ agentName })`): a child's, whose budget stays within the
   * parent's limit, as a delegated task's stays within its parent's pool (a direct run has no
   * pool above it).
   */
  directSpec(parent: AgentSpec, definition: AgentDefinition): AgentSpec {
    const child = this.childSpec(parent, definition);
    return this.#told(this.#settingWarnings.get(child) ?? [], { ...child, ...ownBudget(narrowedBudget(definition.tokenBudget, parent.tokenBudget)) });
  }

  /**
   * The main agent as a `mode: primary` definition describes it: its prompt (unless
   * `instructions` were given in code), tools narrowed from the main agent's, model, steps,
   * settings and rules (a workspace file only narrows); still named `main`, at depth 0.
   */
  primarySpec(main: AgentSpec, primary: AgentDefinition, instructionsFromCode: boolean): AgentSpec {
    const toolNames = narrowTools({
      parentTools: main.toolNames,
      tools: primary.tools,
      disallowedTools: primary.disallowedTools,
      disabledTools: this.o.disabledTools,
      canDelegate: main.toolNames.some(isDelegationTool),
    });
    const model = this.modelOf(primary, main.model);
    const { settings, warnings } = narrowedSettings(primary, model, this.o.agents.mayLoosen(primary));
    return this.#told(warnings, {
      ...main,
      model,
      instructions: instructionsFromCode ? main.instructions : this.o.agents.systemPromptOf(primary),
      toolNames,
      policy: main.policy.child(primary.permissionRules, { narrowOnly: !this.o.agents.mayLoosen(primary) }),
      maxSteps: stepLimit(primary.maxSteps, main.maxSteps, this.o.agents.mayLoosen(primary)),
      ...ownBudget(primaryBudget(primary.tokenBudget, main.tokenBudget, this.o.agents.mayLoosen(primary))),
      ...(settings ? { settings } : {}),
      ...laterNarrowing(main, primary),
    });
  }

  /** `spec`, whose runs start with `warnings` (see `scopeOf`). */
  #told(warnings: readonly SettingWarning[], spec: AgentSpec): AgentSpec {
    if (warnings.length > 0) this.#settingWarnings.set(spec, warnings);
    return spec;
  }

  /** The definition's model (own keys only: `model: constructor` must not find Object.prototype's), else the parent's. */
  private modelOf(definition: AgentDefinition, parentModel: ChatModel): ChatModel {
    const named = definition.model;
    if (named === undefined) return parentModel;
    const model = Object.hasOwn(this.o.models, named) ? this.o.models[named] : undefined;
    if (model) return model;
    const known = Object.keys(this.o.models).join(', ') || 'none';
    throw new Error(`agent "${definition.name}" asks for model "${named}", which the engine does not have (models: ${known})`);
  }
}

/** A child of a spec whose MCP tools are chosen at its run start narrows them one step further then. */
function laterNarrowing(parent: AgentSpec, definition: AgentDefinition): { mcpNarrowing?: readonly ToolNarrowing[] } {
  if (!parent.mcpNarrowing) return {};
  return { mcpNarrowing: [...parent.mcpNarrowing, { tools: definition.tools, disallowedTools: definition.disallowedTools }] };
}

/**
 * The main agent's budget under a primary definition: the definition's, else the engine's. A
 * workspace file (untrusted, see `mayLoosen`) only narrows the engine's: a cloned repository
 * must not raise the spending limit its operator set.
 */
function primaryBudget(own: number | undefined, engine: number | undefined, trusted: boolean): number | undefined {
  return trusted ? (own ?? engine) : narrowedBudget(own, engine);
}

/**
 * A run's step limit under a definition: its own, else the engine's. A workspace file
 * (untrusted) only lowers it, as it only narrows the budget: `maxSteps: 100000` in a cloned
 * repository must not lift the limit the operator set.
 */
function stepLimit(own: number | undefined, engine: number, trusted: boolean): number {
  return own === undefined ? engine : trusted ? own : Math.min(own, engine);
}

/** The tighter of two limits, either of which may be absent (no limit). */
function narrowedBudget(own: number | undefined, above: number | undefined): number | undefined {
  return own === undefined || above === undefined ? (own ?? above) : Math.min(own, above);
}

function ownBudget(limit: number | undefined): { tokenBudget?: number } {
  return limit === undefined ? {} : { tokenBudget: limit };
}

function approvalTimeout(ms: number | undefined): { approvalTimeoutMs?: number } {
  return ms === undefined ? {} : { approvalTimeoutMs: ms };
}
