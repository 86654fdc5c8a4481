/**
 * A link already in the workspace reached by a spelling the line reader cannot follow as text:
 * a glob or a run-time part before or in the link's name (`front*`, `notes$x.md`,
 * `$PWD/frontend`), `..` after a folder the line makes first, and `/proc/self/cwd` (the
 * harness's own folder, not the shell's). Each line below wrote `src/a.ts` (or a git hook) in
 * real bash while it was allowed.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PermissionRule } from '../../src/permission/permission-rule.js';
import { PermissionPolicy } from '../../src/permission/permission-policy.js';

let root: string;
let ws: string;

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'bash-link-spellings-')));
  ws = join(root, 'ws');
  for (const dir of ['src', 'x', 'docs', '.git/hooks', 'build']) mkdirSync(join(ws, dir), { recursive: true });
  writeFileSync(join(ws, 'src/a.ts'), '');
  symlinkSync('src', join(ws, 'frontend'));
  symlinkSync('../src', join(ws, 'x/fe'));
  symlinkSync('src/a.ts', join(ws, 'notes.md'));
  symlinkSync('.git/hooks', join(ws, 'hooks'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const BASH: PermissionRule = { tool: 'bash', action: 'allow' };
const DENY: PermissionRule[] = [BASH, { tool: 'write', action: 'deny', pattern: 'src/**' }];
const DENYTS: PermissionRule[] = [BASH, { tool: 'write', action: 'deny', pattern: 'src/*.ts' }];
const DENYA: PermissionRule[] = [BASH, { tool: 'write', action: 'deny', pattern: 'src/a.ts' }];
const decide = (line: string, rules: readonly PermissionRule[]) => new PermissionPolicy({ rules }).evaluate('bash', line, { workspace: ws }).action;

describe('links reached through a glob or a run-time part', () => {
  it.each([
    ['echo A > front*/a.ts', DENY],
    ['tee front*/a.ts', DENY],
    ['echo B > [f]rontend/a.ts', DENY],
    ['echo C | tee x/f?/a.ts', DENY],
    ['echo D > note?.md', DENYTS],
    ['echo E > notes$x.md', DENYTS],
    ['echo x > $PWD/frontend/a.ts', DENYA],
    ['echo x > "$(pwd)/frontend/a.ts"', DENYA],
    ['echo x > ~+/frontend/a.ts', DENYA],
    ['echo x > {frontend,docs}/a.ts', DENYA],
  ])('%s is judged where it lands', (line, rules) => {
    expect(decide(line, rules)).toBe('deny');
  });

  it('a glob reaching a git hook through a link makes the line one the checker cannot read', () => {
    const rules: PermissionRule[] = [BASH, { tool: 'bash', action: 'deny', pattern: 'rm *' }];
    expect(decide('echo "touch pwned" >> h?oks/pre-commit', rules)).not.toBe('allow');
    expect(decide('tee -a ho*/pre-commit', rules)).not.toBe('allow');
    expect(decide('echo x >> do*/notes.txt', rules)).toBe('allow');
  });

  it('globs and run-time parts that reach no link stay allowed', () => {
    expect(decide('echo x > do*/a.md', DENY)).toBe('allow');
    expect(decide('echo x > $PWD/docs/a.md', DENYA)).toBe('allow');
    expect(decide("echo x > 'd[o]cs/a.md'", DENY)).toBe('allow');
    expect(decide('echo x > build/$n.log', DENYTS)).toBe('allow');
  });
});

describe('the cost of a glob', () => {
  it('a folder of many plain files is listed once, and only links among the matches are followed', () => {
    for (let i = 0; i < 600; i++) writeFileSync(join(ws, 'build', `f${i}.o`), '');
    expect(decide('rm -f build/*.o', DENY)).toBe('allow');
    expect(decide('echo x > build/*.o', DENY)).toBe('allow');
  });

  it('more links matched than can be followed is judged as any path', () => {
    for (let i = 0; i < 300; i++) symlinkSync('../docs', join(ws, 'build', `l${i}`));
    const decided = new PermissionPolicy({ rules: DENY }).evaluate('bash', 'echo x > build/l*/a.md', { workspace: ws });
    expect(decided.action).toBe('deny');
    expect(decided.reason).toContain('any path');
  });
});

describe('other spellings of a link', () => {
  it('`..` after a folder the line makes first climbs back where it was', () => {
    expect(decide('mkdir -p newd && echo F > newd/../frontend/a.ts', DENY)).toBe('deny');
    expect(decide('mkdir -p n/m && echo F > n/m/../../frontend/a.ts', DENY)).toBe('deny');
    expect(decide('mkdir -p newd && echo F > newd/../docs/a.md', DENY)).toBe('allow');
  });

  it('/proc/self, /proc/thread-self and /proc/<pid> are judged as any path: the harness is not the shell', () => {
    for (const line of ['echo x > /proc/self/cwd/frontend/a.ts', 'echo x > /proc/thread-self/cwd/frontend/a.ts', `echo x > /proc/${process.pid}/cwd/frontend/a.ts`]) {
      expect(decide(line, DENY), line).toBe('deny');
    }
  });
});

// The model writes the glob: as a regular expression (`^.*.*…Z$`) fourteen stars held one
// decision 20 s on a 24-character name, the event loop with it. Matched as a glob, each name
// costs at most its length times the glob's parts; without the fix this test times out.
describe('globs of many stars (the model writes them)', () => {
  it('are matched in bounded time, and still follow the link they match', () => {
    for (const name of ['node_modules_and_more_xx', 'a-very-long-folder-name-of-the-workspace']) mkdirSync(join(ws, name));
    const stars = '*'.repeat(40);
    expect(decide(`echo x > f${stars}d/a.ts`, DENY)).toBe('deny');
    // Matching no name: decided (by the text alone), not held.
    for (const line of [`echo x > ${stars}Z/a.ts`, `echo x > ${'?*'.repeat(60)}q/a.ts`]) expect(['allow', 'ask', 'deny']).toContain(decide(line, DENY));
    // Past 128 parts a segment matches any name: followed, so the link to src/ is judged.
    expect(decide(`echo x > ${'f*'.repeat(200)}/a.ts`, DENY)).toBe('deny');
  });
});
