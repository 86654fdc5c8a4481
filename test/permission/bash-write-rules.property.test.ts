import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PermissionPolicy, type PermissionRule } from '../../src/permission/index.js';

// Generated spellings of a bash write into a folder the user's write rule denies: any writer
// (redirections of every kind, copiers, tee, sed -i, dd, curl, sort), any spelling of the
// path, wrapped or nested, among other commands. The same lines aimed at another folder stay
// allowed, so the check is about where the line writes, not how it is spelt.

const rules: PermissionRule[] = [
  { tool: 'bash', action: 'allow' }, // a trusted sandbox...
  { tool: 'write', action: 'deny', pattern: 'src/**' }, // ...that must not touch src/
];
const policy = new PermissionPolicy({ rules });

/** Single-quotes text for the shell. */
const sq = (text: string): string => `'${text.replaceAll("'", `'\\''`)}'`;

/** Ways to write a file, given its path as the shell should see it. */
const writers: readonly ((path: string) => string)[] = [
  ...['>', '>>', '>|', '1>', '&>', '&>>', '1<>', '>&', '2>'].map((op) => (p: string) => `echo x ${op} ${p}`),
  (p) => `cat <<< x > ${p}`,
  (p) => `> ${p}`,
  (p) => `tee ${p}`,
  (p) => `tee -a log.txt ${p}`,
  (p) => `cp y ${p}`,
  (p) => `mv y ${p}`,
  (p) => `install -m 644 y ${p}`,
  (p) => `ln -sf y ${p}`,
  (p) => `sed -i 's/a/b/' ${p}`,
  (p) => `dd if=y of=${p}`,
  (p) => `curl -o ${p} https://example.com/a`,
  (p) => `sort -o ${p} y`,
  (p) => `git diff --output=${p}`,
];
/** Spellings of `<folder>/<name>` (name made of safe letters). */
const spellings: readonly ((dir: string, name: string) => string)[] = [
  (d, n) => `${d}/${n}`,
  (d, n) => `"${d}/${n}"`,
  (d, n) => `'${d}'/${n}`,
  (d, n) => `./${d}/${n}`,
  (d, n) => `${d}//${n}`,
  (d, n) => `lib/../${d}/${n}`,
  (d, n) => `/home/u/ws/${d}/${n}`,
  (d, n) => `../ws/${d}/${n}`,
  (d, n) => `"${d}"/"${n}"`,
];
const wrappers: readonly ((command: string) => string)[] = [
  (c) => c,
  (c) => `command ${c}`,
  (c) => `env ${c}`,
  (c) => `timeout 5 ${c}`,
  (c) => `sudo -n ${c}`,
  (c) => `sh -c ${sq(c)}`,
  (c) => `bash -lc ${sq(c)}`,
  (c) => `echo "$(${c})"`,
  (c) => `( ${c} )`,
  (c) => `{ ${c}; }`,
  (c) => `if true; then ${c}; fi`,
];
const neighbours = ['', 'echo ok; ', 'ls && ', 'true || '];

// Each name ends in `.out`: a bare program name (`out/vi`, `out/ar`) under a wrapper whose later
// words may each be its command (`env`, `sudo`) is read as that program run, a known false
// refusal (docs/permissions.md), which random names hit now and then.
const name = fc
  .stringMatching(/^[a-z][a-z0-9_.-]{0,11}$/)
  .filter((n) => !n.includes('..') && n !== 'src')
  .map((n) => `${n}.out`);
const line = (dir: string) =>
  fc
    .tuple(fc.constantFrom(...writers), fc.constantFrom(...spellings), name, fc.constantFrom(...wrappers), fc.constantFrom(...neighbours))
    .map(([write, spell, n, wrap, before]) => `${before}${wrap(write(spell(dir, n)))}`);

describe('a bash write into a folder the write rules deny (generated spellings)', () => {
  it('is denied, naming the write rule', () => {
    fc.assert(
      fc.property(line('src'), (text) => {
        const decision = policy.evaluate('bash', text);
        expect(decision.action).toBe('deny');
        expect(decision.rule).toEqual(rules[1]);
      }),
      { numRuns: 400 },
    );
  });

  it('is allowed when it writes elsewhere', () => {
    fc.assert(
      fc.property(line('out'), (text) => {
        expect(policy.evaluate('bash', text).action).toBe('allow');
      }),
      { numRuns: 400 },
    );
  });
});
