import { constants } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Static } from 'typebox';
import { checkConfined, makeConfinedFolder, openConfined, type ConfinedRoot } from '../session/confined-file.js';
import { AGENT_NAME_PATTERN, type AgentDefinition } from '../subagent/agent-definition.js';
import type { AgentManager } from '../subagent/agent-manager.js';
import { defineAgent } from '../subagent/define-agent.js';
import { formatAgentMarkdown } from '../subagent/format-agent-markdown.js';
import { isKnownToolName } from '../subagent/narrow-tools.js';
import { defineTool } from '../tools/define-tool.js';
import type { Tool, ToolContext, ToolResult } from '../tools/tool.js';
import { toolError } from '../tools/tool-error.js';
import { errorMessage } from '../errors/error-message.js';

/**
 * The most text `generate` takes from the model, per argument. A generated agent lives for
 * the rest of the engine's life: its name and description go into the `task` and `multitask`
 * descriptions of every conversation, at every step, and its prompt stays in memory. A call
 * over a limit is refused by the schema (the model reads which argument and its limit, and
 * is offered the limits in the schema too); nothing is registered.
 */
export const GENERATE_LIMITS = Object.freeze({
  /** Characters of `name` (a file name too, with `save_to_file`). */
  nameChars: 64,
  /** Characters of `description`: the built-in agents' longest has under 300. */
  descriptionChars: 500,
  /** Characters of `system_prompt`; four bytes each at most, a saved file stays well under what discovery reads back. */
  promptChars: 32_000,
  /** Items of `tools` and of `skills` (`MAX_SKILLS` are loaded at most). */
  listItems: 64,
  /** Characters of each item of `tools` and `skills` (a tool name is at most 64; a glob may be longer). */
  listItemChars: 128,
});

const { nameChars, descriptionChars, promptChars, listItems, listItemChars } = GENERATE_LIMITS;
/** The schema of a list of names (`tools`, `skills`), bounded as {@link GENERATE_LIMITS} says. */
const names = (what: string) => ({ type: 'array', maxItems: listItems, items: { type: 'string', maxLength: listItemChars }, description: what }) as const;

// A JSON schema literal, typed by TypeBox's `Static` (a type-only import): the TypeBox
// builders would load ~370 modules when the package is imported (test/packaging/import-cost.test.ts).
const GENERATE_INPUT = {
  type: 'object',
  required: ['name', 'description', 'system_prompt'],
  properties: {
    name: { type: 'string', maxLength: nameChars, description: `The new agent's name: letters, digits, "_" and "-" only; at most ${nameChars} characters.` },
    description: { type: 'string', minLength: 1, maxLength: descriptionChars, description: `What the agent is for (shown in the agent list); at most ${descriptionChars} characters.` },
    system_prompt: { type: 'string', minLength: 1, maxLength: promptChars, description: `The agent's system prompt: its role and how it works; at most ${promptChars} characters.` },
    tools: names(`Tools it may use (default: all, narrowed to yours); at most ${listItems}.`),
    skills: names(`Skills to put into its prompt: folder names under .rxharness/skills/; at most ${listItems}.`),
    save_to_file: { type: 'boolean', description: 'Also save it to .rxharness/agents/<name>.md in the workspace.' },
  },
  additionalProperties: false,
} as const;

/**
 * Arguments of `generate` as validated by its schema.
 *
 * @interface
 */
export type GenerateArgs = Static<typeof GENERATE_INPUT>;

/**
 * The most agents `generate` registers in one engine, for the rest of its life. Each one
 * lengthens the agent list that every `task` and `multitask` description carries, in every
 * conversation of the engine: without a bound one conversation's model could grow them all.
 */
export const MAX_GENERATED_AGENTS = 64;

/** Agents `generate` has registered, or is registering, per engine: by its agent manager (one per engine). */
const generatedBy = new WeakMap<AgentManager, number>();

/** What `generate` needs from the engine. */
export interface GenerateDeps {
  readonly agents: AgentManager;
  /** Tool names a definition may list. */
  readonly knownTools: readonly string[];
  readonly workspace: string;
}

/**
 * The `generate` tool: registers a new subagent definition at run time, for the rest of the
 * engine's life. It starts from the `general` definition's settings and takes the given
 * name, description, prompt and tools. It is trusted as much as that `general`: a copy of a
 * workspace `general.md` the engine does not trust keeps its source, so its rules still
 * only narrow (see `AgentManager.mayLoosen`). An existing name, an invalid name or an unknown
 * tool is an error result; nothing is overwritten. `save_to_file` writes the definition
 * where discovery reads it back (`<workspace>/.rxharness/agents/<name>.md`): the call is then
 * judged under that path too, which the default rules ask about (as they ask about a `write`
 * there), and a rule denying `write` of it refuses the save. It never writes
 * through a symbolic link that leads out of the workspace nor onto a link as the file
 * itself: such a save fails, naming the link, and creates nothing. After
 * {@link MAX_GENERATED_AGENTS} agents in an engine, it is an error result too, and so is
 * text over {@link GENERATE_LIMITS}.
 *
 * @example
 * ```ts
 * const tool = createGenerateTool({ agents: engine.agents, knownTools: ['read', 'grep'], workspace });
 * ```
 */
export function createGenerateTool(deps: GenerateDeps): Tool<GenerateArgs> {
  const tool = defineTool({
    name: 'generate',
    description:
      'Create a new specialised subagent when none of the available agents fits a task. It can then be used with task/multitask by name.',
    input: GENERATE_INPUT,
    subject: (args) => args.name,
    async execute(args, context) {
      const made = generatedBy.get(deps.agents) ?? 0;
      if (made >= MAX_GENERATED_AGENTS) {
        return fail(`this engine already has the ${MAX_GENERATED_AGENTS} generated agents it allows, so no agent was created; delegate to one of the available agents instead.`);
      }
      // Taken before the first await, so calls racing through their checks cannot pass the bound together.
      generatedBy.set(deps.agents, made + 1);
      let created = false;
      try {
        const result = await generateAgent(deps, args, context);
        created = typeof result === 'string'; // every refusal is a `fail` result
        return result;
      } finally {
        if (!created) generatedBy.set(deps.agents, (generatedBy.get(deps.agents) ?? 1) - 1);
      }
    },
  });
  // A save writes where the next engine reads definitions: judged under that file too, so the
  // default rules ask for it as they ask for a `write` there (a planted agent outlives the run).
  // The name stays a subject: a rule on names still holds for a call that saves.
  return Object.assign(tool, { subjects: (args: GenerateArgs) => (args.save_to_file ? [args.name, savedPath(args.name)] : [args.name]) });
}

/** Checks, builds and registers (and with `save_to_file` writes) the agent: a message on success, an error result otherwise. */
async function generateAgent(deps: GenerateDeps, args: GenerateArgs, context: ToolContext): Promise<ToolResult | string> {
  if (!AGENT_NAME_PATTERN.test(args.name)) {
    return fail(`"${args.name}" is not a valid agent name: use only letters, digits, "_" and "-".`);
  }
  if (await deps.agents.get(args.name)) return fail(`an agent named "${args.name}" already exists; choose another name.`);
  // MCP tools are known by their server's glob (`mcp__fs__*`): a name or glob it covers is known.
  const unknown = (args.tools ?? []).filter((t) => !isKnownToolName(t, deps.knownTools));
  if (unknown.length) {
    return fail(`unknown tool ${unknown.map((t) => `"${t}"`).join(', ')}; known tools: ${deps.knownTools.join(', ')}.`);
  }
  const general = await deps.agents.get('general');
  let definition: AgentDefinition;
  try {
    definition = defineAgent({
      ...(general ? inherited(general) : {}),
      name: args.name,
      description: args.description,
      systemPrompt: args.system_prompt,
      ...(args.tools?.length ? { tools: args.tools } : {}),
      // Kept as given (Solon's generate takes skills): one the engine cannot load now is a warning, not a failure.
      ...(args.skills?.length ? { skills: args.skills } : {}),
    });
  } catch (e) {
    return fail(errorMessage(e));
  }
  // A copy of a general the engine does not trust (a workspace file) is trusted no more than
  // it: were it `runtime`, the allow and ask rules its general may not use would apply to it.
  if (general && !deps.agents.mayLoosen(general)) definition = Object.freeze({ ...definition, source: general.source });
  const taken = `an agent named "${args.name}" already exists; choose another name.`;
  const note = skillNote(deps.agents.skillProblems(definition), context);
  if (!args.save_to_file) {
    // Another run may have taken the name while we checked: never overwrite.
    return deps.agents.addIfAbsent(definition) ? `Created agent "${args.name}". Delegate to it with task or multitask.${note}` : fail(taken);
  }
  // A user's deny of writing there binds this save as it binds `write` (the gate judged `generate`'s rules).
  if (context.judgePath?.('write', savedPath(args.name)) === 'deny') {
    return fail(`the permission rules deny writing ${savedPath(args.name)}, so no agent was created; call generate again without save_to_file.`);
  }
  // The file first: a save that fails (say, a file of that name is there) registers nothing.
  const folder = join(deps.workspace, '.rxharness', 'agents');
  const file = join(folder, `${args.name}.md`);
  const root: ConfinedRoot = { path: resolve(deps.workspace), label: 'the workspace' };
  try {
    await save(root, folder, file, formatAgentMarkdown(definition));
  } catch (e) {
    return fail(`could not save ${file}, so no agent was created: ${errorMessage(e)}`);
  }
  if (!deps.agents.addIfAbsent(definition)) {
    // The name was taken meanwhile: the file would contradict it. Removed only where it was written.
    await checkConfined(root, file, 'file').then(() => rm(file, { force: true }), () => undefined);
    return fail(taken);
  }
  return `Created agent "${args.name}" and saved it to ${file}. Delegate to it with task or multitask.${note}`;
}

/** Where `save_to_file` writes the agent `name`, relative to the workspace (the subject form permission rules match). */
function savedPath(name: string): string {
  return `.rxharness/agents/${name}.md`;
}

/** Writes a new file (never over one) below the workspace, refusing links that lead out of it. */
async function save(root: ConfinedRoot, folder: string, file: string, text: string): Promise<void> {
  await makeConfinedFolder(root, folder);
  const handle = await openConfined(root, file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL);
  try {
    await handle.writeFile(text);
  } finally {
    await handle.close();
  }
}

/**
 * The settings a generated agent copies from `general` (not its identity or prompt). Its
 * limits too (`tokenBudget`, `settings` such as `maxTokens`): an operator who bounds each
 * `general` task must not see a model step around the bound by delegating to a copy.
 */
function inherited(general: AgentDefinition) {
  return {
    ...(general.tools ? { tools: general.tools } : {}),
    ...(general.disallowedTools ? { disallowedTools: general.disallowedTools } : {}),
    ...(general.model ? { model: general.model } : {}),
    ...(general.maxSteps ? { maxSteps: general.maxSteps } : {}),
    ...(general.tokenBudget !== undefined ? { tokenBudget: general.tokenBudget } : {}),
    ...(general.settings ? { settings: general.settings } : {}),
    permissionRules: general.permissionRules,
  };
}

/** Says (to the model, and to a streaming consumer in a `Warning`) which skills will not be loaded. */
function skillNote(problems: readonly string[], context: ToolContext): string {
  if (problems.length === 0) return '';
  const message = `generate: ${problems.join('; ')}`;
  context.emit({ type: 'Warning', runId: context.runId, agentName: context.agentName, code: 'unknown-skill', message });
  return ` Note: ${problems.join('; ')}.`;
}

function fail(message: string): ToolResult {
  return { ...toolError(`generate: ${message}`), error: message };
}
