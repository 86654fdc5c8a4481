import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { AgentManager } from '../subagent/agent-manager.js';
import { standardAgentDirs } from '../subagent/agent-dirs.js';
import type { AgentDefinition } from '../subagent/agent-definition.js';
import type { CliIO } from './cli-io.js';
import { AGENTS_HELP } from './help-text.js';

/**
 * `rxharness agents`: the visible definitions with their source (and the main agent's
 * definition, `mode: primary`, when there is one), then the diagnostics.
 */
export async function agentsCommand(argv: readonly string[], io: CliIO): Promise<number> {
  const { values } = parseArgs({
    args: [...argv],
    options: { json: { type: 'boolean' }, workspace: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    io.stdout.write(AGENTS_HELP);
    return 0;
  }
  const workspace = resolve(io.cwd, values.workspace ?? '.');
  const manager = new AgentManager({ dirs: standardAgentDirs({ workspace, home: io.env.HOME }) });
  const agents = listed(manager.list(), manager.primary()).map((a) => ({
    name: a.name,
    description: a.description,
    source: a.source,
    ...(a.file ? { file: a.file } : {}),
    // Only what differs from a plain subagent, so existing consumers see the shape they know.
    ...(a.mode && a.mode !== 'subagent' ? { mode: a.mode } : {}),
    ...(a.color ? { color: a.color } : {}),
  }));
  const diagnostics = manager.diagnostics();
  if (values.json) {
    io.stdout.write(JSON.stringify({ agents, diagnostics }, null, 2) + '\n');
    return 0;
  }
  const width = Math.max(...agents.map((a) => a.name.length), 4);
  const sourceWidth = Math.max(...agents.map((a) => a.source.length + 2), 0);
  for (const a of agents) {
    const mode = a.mode ? ` (mode: ${a.mode})` : '';
    io.stdout.write(`${a.name.padEnd(width)}  ${`[${a.source}]`.padEnd(sourceWidth)}  ${a.description}${mode}\n`);
  }
  if (diagnostics.length) {
    io.stdout.write(`\n${diagnostics.length} definition file(s) skipped or with warnings:\n`);
    for (const d of diagnostics) io.stdout.write(`  ${d.file}: ${d.reason}\n`);
  }
  return 0;
}

/** The visible subagents plus the primary definition (which `list` leaves out when it is `mode: primary` or hidden), by name. */
function listed(visible: readonly AgentDefinition[], primary: AgentDefinition | undefined): AgentDefinition[] {
  const all = primary === undefined || visible.includes(primary) ? [...visible] : [...visible, primary];
  return all.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
