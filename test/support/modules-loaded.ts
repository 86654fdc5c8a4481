/**
 * Which modules a fresh node process loads while it runs a script: for tests that hold a
 * heavy dependency out of the package's import (through the hooks in
 * test/mcp/support/record-loads.mjs, which write each matching URL to a file).
 *
 * @module
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const hooks = join(import.meta.dirname, '..', 'mcp', 'support', 'record-loads.mjs');
const root = join(import.meta.dirname, '..', '..');

/** The URLs containing `match` that a fresh `node` (with tsx, in the repository) loads running `script`. */
export async function modulesLoadedBy(match: string, script: string): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'rxh-loads-'));
  const file = join(dir, 'loaded.txt');
  try {
    // HOME is the run's own folder: an engine in the script reads no one's ~/.rxharness (nothing is written there).
    const env = { ...process.env, HOME: dir, RECORD_LOADS_FILE: file, RECORD_LOADS_MATCH: match, RECORD_LOADS_HOOKED: '' };
    await run(process.execPath, ['--import', hooks, '--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, env, timeout: 30_000 });
    return (await readFile(file, 'utf8').catch(() => '')).split('\n').filter(Boolean);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A script that imports the package and runs one engine call to its end, with no MCP server. */
export const ENGINE_CALL_SCRIPT = `
  const { HarnessEngine, ScriptedModel } = await import('./src/index.ts');
  const engine = new HarnessEngine({ model: new ScriptedModel([{ text: 'done' }]) });
  await engine.call('hi');
  await engine.close();
`;
