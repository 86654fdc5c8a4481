import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../../src/permission/index.js';

// Generated spellings of the removals, changes and in-place edits of a file: aimed at a folder
// the write rule denies they are denied, aimed at another folder the same line stays allowed,
// so the check is about where the line changes files, not which program does it.

const policy = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow' }, { tool: 'write', action: 'deny', pattern: 'src/**' }] });

/** Ways to change a file or folder, given its path as the shell should see it. */
const changers: readonly ((path: string) => string)[] = [
  (p) => `rm ${p}`, (p) => `rm -rf -- ${p}`, (p) => `rmdir ${p}`, (p) => `unlink ${p}`, (p) => `shred -n 3 -u ${p}`,
  (p) => `touch -r ref ${p}`, (p) => `mkdir -pm 700 ${p}`, (p) => `chmod 0600 ${p}`, (p) => `chmod -R u+w ${p}`, (p) => `chown -h u:g ${p}`,
  (p) => `git restore ${p}`, (p) => `git checkout HEAD -- ${p}`, (p) => `git rm -rq ${p}`, (p) => `git clean -fd ${p}`,
  (p) => `find . -fprint ${p}`, (p) => `perl -i -pe 's/a/b/' ${p}`, (p) => `ruby -pi -e 'x' ${p}`, (p) => `ex -sc wq ${p}`, (p) => `ssh -E ${p} host`,
];
/** `find -delete` is judged as `rm {}` on each file found (any path), wherever it starts: only the denied side holds it. */
const deleteUnder = (p: string): string => `find ${p} -delete`;
/** Spellings of `<folder>/<name>`. */
const spellings: readonly ((dir: string, name: string) => string)[] = [
  (d, n) => `${d}/${n}`, (d, n) => `"${d}/${n}"`, (d, n) => `./${d}//${n}`, (d, n) => `lib/../${d}/${n}`, (d, n) => `${d}/x/../${n}`,
];
/** Single-quotes text for the shell. */
const sq = (text: string): string => `'${text.replaceAll("'", `'\\''`)}'`;
/** What may stand around the change on the line. */
const contexts: readonly ((command: string) => string)[] = [
  (c) => c, (c) => `ls && ${c}`, (c) => `${c} 2>/dev/null || true`, (c) => `env ${c}`, (c) => `sh -c ${sq(c)}`,
];

const line = (dir: string): fc.Arbitrary<string> =>
  fc.tuple(fc.constantFrom(...changers, ...(dir === 'src' ? [deleteUnder] : [])), fc.constantFrom(...spellings), fc.constantFrom(...contexts), fc.stringMatching(/^[a-z][a-z0-9]{0,6}(?:\.ts)?$/))
    .map(([change, spell, around, name]) => around(change(spell(dir, name))));

describe('generated removals, changes and in-place edits', () => {
  it('are denied when they touch src/', () => {
    fc.assert(fc.property(line('src'), (l) => {
      expect(policy.evaluate('bash', l).action, l).toBe('deny');
    }), { numRuns: 300, seed: 20261205 });
  });

  it('stay allowed when they touch out/', () => {
    fc.assert(fc.property(line('out'), (l) => {
      expect(policy.evaluate('bash', l).action, l).toBe('allow');
    }), { numRuns: 300, seed: 20261205 });
  });
});
