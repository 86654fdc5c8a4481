import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const hooks = join(import.meta.dirname, 'support', 'record-loads.mjs');
const root = join(import.meta.dirname, '..', '..');

/** The `@modelcontextprotocol/sdk` modules a fresh node process loads while running `script`. */
async function sdkModulesLoadedBy(script: string): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'rxh-loads-'));
  const file = join(dir, 'loaded.txt');
  try {
    const env = { ...process.env, RECORD_LOADS_FILE: file, RECORD_LOADS_MATCH: '@modelcontextprotocol/sdk', RECORD_LOADS_HOOKED: '' };
    await run(process.execPath, ['--import', hooks, '--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, env, timeout: 30_000 });
    return (await readFile(file, 'utf8').catch(() => '')).split('\n').filter(Boolean);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('the MCP SDK loads only when a server starts', () => {
  it('is not loaded by importing the package, nor by an engine that runs without MCP servers', async () => {
    const loaded = await sdkModulesLoadedBy(`
      const { HarnessEngine, ScriptedModel } = await import('./src/index.ts');
      const engine = new HarnessEngine({ model: new ScriptedModel([{ text: 'done' }]) });
      await engine.call('hi');
      await engine.close();
    `);
    expect(loaded).toEqual([]);
  });

  it('is loaded by a connection that starts a server (the recorder sees it)', async () => {
    const loaded = await sdkModulesLoadedBy(`
      const { McpConnection } = await import('./src/mcp/mcp-connection.ts');
      const c = new McpConnection('x', { command: process.execPath, args: ['-e', 'process.exit(3)'] }, process.cwd());
      await c.ensure();
      if (!c.problem?.includes('failed to start')) throw new Error('unexpected: ' + c.problem);
    `);
    expect(loaded.some((url) => url.includes('/client/index.js'))).toBe(true);
    expect(loaded.some((url) => url.includes('/client/stdio.js'))).toBe(true);
  });
});
