import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// TypeBox's builders load some 370 modules (~20 MiB, ~200 ms) when imported: our schemas are
// JSON schema literals typed with `import type { Static }`, so importing the package and
// running an engine must load none of it. TypeBox stays a dependency for our .d.ts files.

const run = promisify(execFile);
const hooks = join(import.meta.dirname, '..', 'mcp', 'support', 'record-loads.mjs');
const root = join(import.meta.dirname, '..', '..');

/** The `typebox` modules a fresh node process loads while running `script`. */
async function typeboxModulesLoadedBy(script: string): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'rxh-loads-'));
  const file = join(dir, 'loaded.txt');
  try {
    const env = { ...process.env, RECORD_LOADS_FILE: file, RECORD_LOADS_MATCH: '/node_modules/typebox/', RECORD_LOADS_HOOKED: '' };
    await run(process.execPath, ['--import', hooks, '--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, env, timeout: 30_000 });
    return (await readFile(file, 'utf8').catch(() => '')).split('\n').filter(Boolean);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('the import cost of the package', () => {
  it('loads no TypeBox module on import, nor while an engine runs a call', async () => {
    const loaded = await typeboxModulesLoadedBy(`
      const { HarnessEngine, ScriptedModel } = await import('./src/index.ts');
      const engine = new HarnessEngine({ model: new ScriptedModel([{ text: 'done' }]) });
      await engine.call('hi');
      await engine.close();
    `);
    expect(loaded).toEqual([]);
  }, 40_000);

  it('would see TypeBox if something imported it (the recorder works)', async () => {
    const loaded = await typeboxModulesLoadedBy(`await import('typebox');`);
    expect(loaded.length).toBeGreaterThan(0);
  }, 40_000);
});
