import type { AgentScope } from '../agent/agent-scope.js';
import { ReActAgent } from '../agent/react-agent.js';
import { checkModelSettings, type ModelSettings } from '../model/model-settings.js';
import type { AgentDefinition } from '../subagent/agent-definition.js';
import { normalizeDefinition } from '../subagent/normalize-definition.js';
import type { Tool } from '../tools/tool.js';

/**
 * What the engine hands a {@link SubagentBuilder}: how to make a depth-1 child's scope of a definition.
 *
 * @internal
 */
export interface SubagentScopeMaker {
  /** The scope of a run of `definition` as a child of the main agent (called when each run starts). */
  readonly scopeOf: (definition: AgentDefinition) => AgentScope;
  /** Tool names the engine disables everywhere (its `disabledTools`): an added tool may not bring one back. */
  readonly disabledTools: readonly string[];
}

/**
 * A subagent the application may still customise before running it, from
 * `engine.createSubagent(definition)` (as Solon's `createSubagent` returns a builder). Each
 * `with...` changes this builder and returns it; {@link SubagentBuilder.build} makes the agent.
 * The agent runs the definition as `task` would, as a child of the main agent at depth 1
 * (its tools narrowed from the main agent's, its permission rules layered on the engine's,
 * its skills in its prompt), in its own session, plus what was set here. It is not
 * registered: `task` cannot name it (use `engine.agents.add` for that).
 *
 * @example
 * ```ts
 * const reviewer = engine
 *   .createSubagent(defineAgent({ name: 'reviewer', description: 'Reviews code', systemPrompt: 'You review code.' }))
 *   .withTool(lookupTicket)
 *   .withSettings({ temperature: 0 })
 *   .withMaxSteps(8)
 *   .build();
 * const { text } = await reviewer.call('Review src/main.ts against ticket 42');
 * ```
 */
export class SubagentBuilder {
  readonly #definition: AgentDefinition;
  readonly #maker: SubagentScopeMaker;
  readonly #tools = new Map<string, Tool>();
  #settings: ModelSettings | undefined;
  #maxSteps: number | undefined;
  #instructions: string | undefined;

  /**
   * Made by `engine.createSubagent`; `definition` is checked first.
   *
   * @throws DefinitionError for an invalid definition.
   * @internal
   */
  constructor(definition: AgentDefinition, maker: SubagentScopeMaker) {
    this.#definition = normalizeDefinition(definition);
    this.#maker = maker;
  }

  /**
   * Offers the agent one more tool, besides the ones its definition gives it (one of the same
   * name is replaced). The engine's permission rules still gate its calls.
   *
   * @throws TypeError when the tool is not a tool, or the engine's `disabledTools` or the
   *   definition's `disallowedTools` name it.
   */
  withTool(tool: Tool): this {
    if (typeof tool?.name !== 'string' || tool.name === '' || typeof tool.execute !== 'function') {
      throw new TypeError('createSubagent().withTool: expected a tool (see defineTool), with a name and an execute function');
    }
    const refusedBy = this.#maker.disabledTools.includes(tool.name)
      ? "the engine's disabledTools"
      : this.#definition.disallowedTools?.includes(tool.name)
        ? `the disallowedTools of agent "${this.#definition.name}"`
        : undefined;
    if (refusedBy) throw new TypeError(`createSubagent().withTool: the tool "${tool.name}" is taken away by ${refusedBy}`);
    this.#tools.set(tool.name, tool);
    return this;
  }

  /**
   * Model settings of the agent's requests, over the definition's own (a field given here
   * wins; the others stay).
   *
   * @throws TypeError naming a setting that is unknown or out of range.
   */
  withSettings(settings: ModelSettings): this {
    checkModelSettings(settings, 'createSubagent().withSettings');
    this.#settings = { ...this.#settings, ...settings };
    return this;
  }

  /** The agent's ReAct step limit, instead of the definition's. @throws TypeError unless a positive integer. */
  withMaxSteps(maxSteps: number): this {
    if (!Number.isInteger(maxSteps) || maxSteps < 1) {
      throw new TypeError(`createSubagent().withMaxSteps: expected a positive integer, got ${String(maxSteps)}`);
    }
    this.#maxSteps = maxSteps;
    return this;
  }

  /** The agent's system prompt, instead of the definition's body (its skills still follow it). @throws TypeError when empty. */
  withInstructions(instructions: string): this {
    if (typeof instructions !== 'string' || instructions.trim() === '') {
      throw new TypeError('createSubagent().withInstructions: the instructions must be a non-empty string');
    }
    this.#instructions = instructions;
    return this;
  }

  /**
   * The agent, as customised so far (later changes to this builder do not reach it). Run it
   * with `stream(prompt)` or `call(prompt)`, like the engine's own agents; an unknown model
   * in its definition fails its run.
   *
   * @throws DefinitionError when the customised definition is not valid.
   */
  build(): ReActAgent {
    const base = this.#definition;
    const settings = this.#settings ? { ...base.settings, ...this.#settings } : base.settings;
    const definition = normalizeDefinition({
      ...base,
      ...(this.#instructions !== undefined ? { systemPrompt: this.#instructions } : {}),
      ...(this.#maxSteps !== undefined ? { maxSteps: this.#maxSteps } : {}),
      ...(settings !== undefined ? { settings } : {}),
    });
    const added = [...this.#tools.values()];
    const scopeOf = this.#maker.scopeOf;
    return ReActAgent.ofScope(definition.name, () => {
      const scope = scopeOf(definition);
      if (added.length === 0) return scope;
      const names = new Set(added.map((tool) => tool.name));
      const tools = async (): Promise<readonly Tool[]> => [...(await scope.tools()).filter((tool) => !names.has(tool.name)), ...added];
      return { ...scope, tools };
    });
  }
}
