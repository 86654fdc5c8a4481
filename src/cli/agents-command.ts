import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { AgentManager } from '../subagent/agent-manager.js';
import { standardAgentDirs } from '../subagent/agent-dirs.js';
import type { CliIO } from './cli-io.js';
import { AGENTS_HELP } from './help-text.js';

/** `rxharness agents`: the visible definitions with their source, then the diagnostics. */
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
  const agents = (await manager.list()).map((a) => ({ name: a.name, description: a.description, source: a.source, ...(a.file ? { file: a.file } : {}) }));
  const diagnostics = await manager.diagnostics();
  if (values.json) {
    io.stdout.write(JSON.stringify({ agents, diagnostics }, null, 2) + '\n');
    return 0;
  }
  const width = Math.max(...agents.map((a) => a.name.length), 4);
  const sourceWidth = Math.max(...agents.map((a) => a.source.length + 2), 0);
  for (const a of agents) io.stdout.write(`${a.name.padEnd(width)}  ${`[${a.source}]`.padEnd(sourceWidth)}  ${a.description}\n`);
  if (diagnostics.length) {
    io.stdout.write(`\n${diagnostics.length} definition file(s) skipped or with warnings:\n`);
    for (const d of diagnostics) io.stdout.write(`  ${d.file}: ${d.reason}\n`);
  }
  return 0;
}
