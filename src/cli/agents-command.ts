import { narrowedSettings } from '../delegation/narrowed-settings.js';
import type { ChatModel } from '../model/chat-model.js';
import { ScriptedModel } from '../model/scripted-model.js';
import type { AgentDefinition } from '../subagent/agent-definition.js';
import type { AgentDiagnostic } from '../subagent/agent-diagnostic.js';
import type { AgentManager } from '../subagent/agent-manager.js';
import { DELEGATION_TOOL_NAMES } from '../subagent/delegation-tool-names.js';
import { narrowTools } from '../subagent/narrow-tools.js';
import { PUBLIC_TOOL_NAMES } from '../tools/builtin/index.js';
import type { CliIO } from './cli-io.js';
import { parseFlags } from './parse-flags.js';
import { engineOptionsFromFlags, newEngine, WORKSPACE_FLAGS } from './engine-flags.js';
import { watchOutput } from './output-watch.js';
import { AGENTS_HELP } from './help-text.js';
import { printed } from './printed.js';
import { diagnosedFiles } from './diagnosed-files.js';
import { oneLine } from '../adapters/terminal-tree/text-line.js';
import { wireJson } from '../text/wire-json.js';
import { quotedName } from '../tools/args-validator.js';

// The named models of the engine the CLI builds: none, every agent runs on its one `--model`.
const CLI_MODELS: Readonly<Record<string, ChatModel>> = {};

/**
 * `rxharness agents`: the visible definitions with their source and tools (and the main
 * agent's definition, `mode: primary`, when there is one), then the diagnostics. Read
 * through an engine built as `run` builds it (its model never called), so the diagnostics
 * are the engine's own: unknown tool names and overrides included. Resolves 1 when a
 * definition file was not loaded (its diagnostics say why), else 0; 141 when stdout was
 * closed before all was written (`| head -1`), quietly, as `run` does; 2 for bad usage
 * (a `--workspace` that is no folder among it).
 *
 * @example
 * ```ts
 * process.exitCode = await agentsCommand(['--json', '--agent-dir', 'team'], processIO());
 * ```
 */
export async function agentsCommand(argv: readonly string[], io: CliIO): Promise<number> {
  const { values } = parseFlags('agents', {
    args: [...argv],
    options: { ...WORKSPACE_FLAGS, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) return printed(io, AGENTS_HELP);
  // --mcp-config is checked here as run checks it, so a bad file shows before a run; its
  // servers are not started (they start lazily, for a run), so their tools are not listed.
  const model = new ScriptedModel([]);
  const engine = newEngine({ model, ...engineOptionsFromFlags(values, io) });
  const manager = engine.agents;
  await engine.close();
  const primary = manager.primary();
  const agents = listed(manager.list(), primary).map((a) => ({
    name: a.name,
    description: a.description,
    source: a.source,
    ...(a.file ? { file: a.file } : {}),
    tools: toolsOf(a, a === primary),
    // Only what differs from a plain subagent, so existing consumers see the shape they know.
    ...(a.mode && a.mode !== 'subagent' ? { mode: a.mode } : {}),
    ...(a.color ? { color: a.color } : {}),
  }));
  const diagnostics = [...manager.diagnostics(), ...settingDiagnostics(manager, model), ...modelDiagnostics(manager, CLI_MODELS)];
  const { notLoaded, withWarnings } = diagnosedFiles(manager, diagnostics, engine.workspace);
  // A definition someone wrote and the engine dropped is a failure a script should see.
  const code = notLoaded.length > 0 ? 1 : 0;
  const output = watchOutput(io);
  try {
    // escaped as `run --json` is: a cloned repository's description may hold C1 controls (CSI),
    // bidi overrides or U+2028, which JSON.stringify leaves raw for the terminal to act on
    if (values.json) io.stdout.write(`${wireJson({ agents, diagnostics, notLoaded }, 2)!}\n`);
    else writeList(io, agents, diagnostics, notLoaded, withWarnings);
    await output.flushed();
  } finally {
    output.stop();
  }
  return output.failure() ?? code;
}

type Listed = { readonly name: string; readonly description: string; readonly source: string; readonly mode?: string };

/**
 * The plain listing: one line per agent, then the files with diagnostics. A description, a
 * file name and a reason (which quotes what a file says) may come from a cloned repository:
 * each is put on one line without escape sequences, so none can rewrite the terminal
 * (`\u001b]52;` sets the clipboard), erase a line or print a fake one.
 */
function writeList(io: CliIO, agents: readonly Listed[], diagnostics: readonly AgentDiagnostic[], notLoaded: readonly string[], withWarnings: readonly string[]): void {
  // Folded, not spread: a spread of a very long list overflows the call stack.
  const width = agents.reduce((most, a) => Math.max(most, a.name.length), 4);
  const sourceWidth = agents.reduce((most, a) => Math.max(most, a.source.length + 2), 0);
  for (const a of agents) {
    const mode = a.mode ? ` (mode: ${a.mode})` : '';
    io.stdout.write(`${a.name.padEnd(width)}  ${`[${a.source}]`.padEnd(sourceWidth)}  ${oneLine(a.description)}${mode}\n`);
  }
  // Counted in files, each listed with all its diagnostics.
  for (const [files, heading] of [[notLoaded, 'not loaded'], [withWarnings, 'loaded with warnings']] as const) {
    if (files.length === 0) continue;
    io.stdout.write(`\n${files.length} definition ${files.length === 1 ? 'file' : 'files'} ${heading}:\n`);
    for (const d of diagnostics.filter((d) => files.includes(d.file))) io.stdout.write(`  ${oneLine(d.file)}: ${oneLine(d.reason)}\n`);
  }
}

/**
 * The settings of a definition that its agent's runs do not apply (a workspace file only
 * narrows: each run starts with a `definition-setting-ignored` warning), as diagnostics of its
 * file, the warning's advice included, so they show before a run. Narrowed on `model`, which
 * has no limits set, as a run given no model flags (`agents` takes none): a workspace file's
 * `context_window` is then always ignored, and its `max_tokens` never lowered.
 */
function settingDiagnostics(manager: AgentManager, model: ChatModel): AgentDiagnostic[] {
  return runnable(manager).flatMap((definition) =>
    narrowedSettings(definition, model, manager.mayLoosen(definition)).warnings.map(({ file, reason }) => ({ file, reason })),
  );
}

/**
 * A diagnostic for each definition a run may use whose `model` names none of `models` (own
 * keys only, as the engine looks it up): every run of its agent, and every task to it, fails
 * on that name. Common in a Claude Code file (`model: sonnet`), whose names mean nothing here.
 */
function modelDiagnostics(manager: AgentManager, models: Readonly<Record<string, ChatModel>>): AgentDiagnostic[] {
  const known = Object.keys(models);
  // A remote (A2A) agent runs on its own server: its model does not apply.
  const unknown = runnable(manager).filter((d) => d.model !== undefined && d.a2a === undefined && !Object.hasOwn(models, d.model));
  return unknown.map((definition) => ({
    file: definition.file ?? `agent ${quotedName(definition.name)} (${definition.source})`,
    reason:
      `model ${quotedName(definition.model!)} names no model of this engine (models: ${known.map(quotedName).join(', ') || 'none'}), so every run of this agent and every task to it fails. ` +
      "Leave model out to run the agent on its parent's model (rxharness runs every agent on its --model), or name a key of the engine option models (which code sets).",
  }));
}

/** The definitions a run may use: the enabled ones and the main agent's, each once (a `mode: all` one is both). */
function runnable(manager: AgentManager): AgentDefinition[] {
  const primary = manager.primary();
  return [...new Set(primary ? [...manager.enabled(), primary] : manager.enabled())];
}

/** The visible subagents plus the primary definition (which `list` leaves out when it is `mode: primary` or hidden), by name. */
function listed(visible: readonly AgentDefinition[], primary: AgentDefinition | undefined): AgentDefinition[] {
  const all = primary === undefined || visible.includes(primary) ? [...visible] : [...visible, primary];
  return all.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * The tools an agent holds: a subagent's when the main agent (every built-in tool and the
 * delegation tools) delegates to it at the default depth, where it cannot delegate further;
 * a primary definition's as the main agent.
 */
function toolsOf(definition: AgentDefinition, primary: boolean): string[] {
  return narrowTools({
    parentTools: [...PUBLIC_TOOL_NAMES, ...DELEGATION_TOOL_NAMES],
    tools: definition.tools,
    disallowedTools: definition.disallowedTools,
    canDelegate: primary,
  });
}
