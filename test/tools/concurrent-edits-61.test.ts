import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { testAgent } from '../support/agent-turns.js';
import { collect } from '../support/collect-events.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { multitaskReply } from '../support/delegation-script.js';

// Two sibling tasks edit one file at the same moment. Each edit reads the whole file, changes
// it and writes it back: without taking turns both read the old text and the later write drops
// the earlier change, while both report success. The file is large (~2 MB) so that the reads
// overlap.

let f: DelegationFixture | undefined;
afterEach(async () => {
  await f?.close();
  f = undefined;
});

describe('concurrent edits of one file', () => {
  it('two sibling tasks editing one file: both changes land', async () => {
    let arrived = 0;
    const results: string[] = [];
    let release!: () => void;
    const both = new Promise<void>((resolve) => (release = resolve));
    f = await startDelegationFixture({
      main: (t) => (t.step === 1 ? multitaskReply([[1, 'worker', 'one', 'edit one'], [2, 'worker', 'two', 'edit two']]) : { text: 'summary' }),
      worker: async (t) => {
        if (t.step === 1) {
          arrived += 1;
          if (arrived === 2) release();
          await both; // both edit calls leave the server together
          const [old, neu] = t.prompt === 'one' ? ['const a = 1;', 'const a = 100;'] : ['const b = 2;', 'const b = 200;'];
          return { toolCalls: [{ name: 'edit', arguments: { path: 'index.ts', old_string: old, new_string: neu } }] };
        }
        results.push(String(t.toolResults.at(-1)));
        return { text: 'done' };
      },
    });
    const filler = '// filler\n'.repeat(200_000);
    await writeFile(join(f.workspace.dir, 'index.ts'), `const a = 1;\n${filler}const b = 2;\n`);
    const events = await collect(f.engine({}, [testAgent('worker')]).stream('go'));
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false });
    expect(results).toHaveLength(2);
    for (const r of results) expect(r).toMatch(/^Replaced 1 occurrence in index.ts/);
    expect(await readFile(join(f.workspace.dir, 'index.ts'), 'utf8')).toBe(`const a = 100;\n${filler}const b = 200;\n`);
  });
});
