/**
 * `walkLinks` against planted links with long targets: 40 links each leading on through 800
 * `d/..` names (what a reviewer planted under a sessions folder's path) took 4 s per walk,
 * an `lstat` and a `realpath` per name (64,000 names). The walk now looks each path up once;
 * its answer is the same: the links in order, where the way ends, the loop and its bound. A
 * property compares it with the system's own `realpath` on random trees of links.
 */
import fc from 'fast-check';
import { fsCallsOf } from './fs-call-count.js';
import { mkdir, realpath, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { errnoOf } from '../../src/errors/errno-of.js';
import { MAX_LINKS, walkLinks } from '../../src/session/link-walk.js';
import { realFolderPath } from '../../src/session/real-folder-path.js';
import { workspaceHomePerTest } from '../support/workspace-home-per-test.js';

const ws = workspaceHomePerTest();
const DETOUR = 'd/../'.repeat(800); // 4,000 characters of names that lead back where they start

/** Links `l0` .. `l39` in the workspace, each leading through {@link DETOUR} to the next, the last to `last`. */
async function plantChain(last: string): Promise<string> {
  await mkdir(join(ws.dir, 'd'));
  for (let i = 0; i < MAX_LINKS; i++) await symlink(DETOUR + (i === MAX_LINKS - 1 ? last : `l${i + 1}`), join(ws.dir, `l${i}`));
  return realpath(ws.dir);
}

/** Each (function, path) at most once, and few of them: not one per name walked. */
function expectLookedUpOnce(calls: readonly { name: string; path: string }[]): void {
  expect(new Set(calls.map(({ name, path }) => `${name} ${path}`)).size).toBe(calls.length);
  expect(calls.length).toBeLessThan(250);
}

describe('walkLinks through 40 planted links of 4,000-character "d/.." targets', () => {
  it('answers the links in order and the end, looking each path up once', async () => {
    const real = await plantChain('end');
    const { result, calls } = await fsCallsOf(() => walkLinks(join(ws.dir, 'l0', 'sessions')));
    expect(result).toEqual({ links: Array.from({ length: MAX_LINKS }, (_, i) => join(real, `l${i}`)), end: join(real, 'end', 'sessions') });
    expectLookedUpOnce(calls);
    // The same place the system reaches once the missing folders are made.
    await mkdir(join(ws.dir, 'end', 'sessions'), { recursive: true });
    expect((await walkLinks(join(ws.dir, 'l0', 'sessions'))).end).toBe(await realpath(join(ws.dir, 'l0', 'sessions')));
  });

  it('answers the loop when the last leads back to the first, bounded as before', async () => {
    const real = await plantChain('l0');
    const { result, calls } = await fsCallsOf(() => walkLinks(join(ws.dir, 'l0', 'sessions')));
    const chain = Array.from({ length: MAX_LINKS }, (_, i) => join(real, `l${i}`));
    expect(result).toEqual({ links: [...chain, chain[0]], loop: [...chain, chain[0]], end: chain[0] });
    expectLookedUpOnce(calls);
    await expect(realFolderPath(join(ws.dir, 'l0', 'sessions'))).rejects.toThrow(`(a loop, through ${chain[0]})`);
  });
});

// The same names at two levels (a/a, a/b, a/l1 beside a, b, l1), so a look-up kept for one path cannot pass for another.
const NAMES = ['a', 'b', 'f', 'l0', 'l1', 'l2', 'l3', '..', '.'];
const way = fc.array(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 6 });
const tree = fc.record({
  links: fc.array(fc.record({ inA: fc.boolean(), absolute: fc.boolean(), target: way }), { minLength: 4, maxLength: 4 }),
  walked: way,
});

describe('walkLinks agrees with the system on random trees of links (property)', () => {
  it('ends where realpath resolves, and finds a loop where it answers ELOOP', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(tree, async ({ links, walked }) => {
        const top = join(ws.dir, `run${run++}`);
        await mkdir(join(top, 'a', 'a'), { recursive: true });
        await mkdir(join(top, 'a', 'b'));
        await mkdir(join(top, 'b'));
        await writeFile(join(top, 'f'), '');
        for (const [i, { inA, absolute, target }] of links.entries()) {
          await symlink(absolute ? join(top, ...target) : target.join('/'), join(top, inA ? 'a' : '', `l${i}`));
        }
        const path = join(top, ...walked);
        const system = await realpath(path).catch((e: unknown) => errnoOf(e));
        const walk = await walkLinks(path).catch((e: unknown) => errnoOf(e));
        // A missing name is taken as a folder to be made: never an error of the walk.
        expect(walk).not.toBe('ENOENT');
        if (system === 'ELOOP') expect(typeof walk === 'object' && walk.loop !== undefined).toBe(true);
        else if (system?.startsWith('/') === true) expect(typeof walk === 'object' ? { end: walk.end, loop: walk.loop } : walk).toEqual({ end: system, loop: undefined });
        else if (system === 'ENOENT' && typeof walk === 'object' && walk.loop === undefined) {
          // Missing: the end is the folder the path reaches once it is made, when making it is what the path lacks.
          const made = await mkdir(walk.end, { recursive: true }).then(() => realpath(path), () => undefined).catch(() => undefined);
          if (made !== undefined) expect(made).toBe(walk.end);
        }
      }),
      { numRuns: 300 },
    );
  });
});
