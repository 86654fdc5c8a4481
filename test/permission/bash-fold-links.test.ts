/**
 * A bash write through a symbolic link already in the workspace into a file other programs
 * run (`linked-executed`) or a file a program on the line runs (`linked-runs`) compared where
 * the link leads lower-cased with `toLowerCase()`, which leaves `ſ` (long s, U+017F) as it is.
 * A file system that ignores case folds it to `s` (Windows upper-cases it to `S`, macOS folds
 * it by Unicode's case folding): there a link to `.huſky` leads into the `.husky/` git runs
 * hooks from, and npm reading `package.json` reads a link named `package.jſon`. On Linux's
 * ext4 these are other files than the plain ones (in real bash here, `.huſky/` and `.husky/`
 * were two folders), so the tests assert the checker's verdict, not the disk.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PermissionRule } from '../../src/permission/permission-rule.js';
import { PermissionPolicy } from '../../src/permission/permission-policy.js';

const S = '\u017F';
const DENY_RM: PermissionRule[] = [{ tool: 'bash', action: 'allow' }, { tool: 'bash', action: 'deny', pattern: 'rm *' }];

let root: string;
let ws: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'bash-fold-links-')));
  ws = join(root, 'ws');
  for (const dir of [`.hu${S}ky`, '.husky', 'build', 'src']) mkdirSync(join(ws, dir), { recursive: true });
  writeFileSync(join(ws, 'build/pkg.txt'), '{}');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const link = (target: string, at: string): void => symlinkSync(target, join(ws, at));
const decide = (line: string) => new PermissionPolicy({ rules: DENY_RM }).evaluate('bash', line, { workspace: ws });

describe('a write through a link into a file other programs run, spelled with a long s', () => {
  it(`a link to .hu${S}ky is refused as a link to .husky is`, () => {
    link('.husky', 'plain');
    link(`.hu${S}ky`, 'hk');
    expect(decide("echo 'rm -rf x' > plain/pre-commit").action).toBe('deny');
    const decided = decide("echo 'rm -rf x' > hk/pre-commit");
    expect(decided.action).toBe('deny');
    expect(decided.reason).toContain('through a symbolic link: it may write a file other programs run');
    expect(decide('echo x > src/notes.md').action).toBe('allow');
  });
});

describe('a write through a link into a file a program on the line runs, spelled with a long s', () => {
  it(`a link named package.j${S}on to the file written`, () => {
    link('build/pkg.txt', `package.j${S}on`);
    const decided = decide(`echo '{"scripts":{"test":"rm v"}}' > build/pkg.txt && npm test`);
    expect(decided.action).toBe('deny');
    expect(decided.reason).toContain(`which is "package.j${S}on" through a symbolic link, a file npm runs`);
    expect(decide('echo x > build/other.txt && npm test').action).toBe('allow');
  });

  it(`a link to the workspace, then package.j${S}on under it`, () => {
    link('.', 'cfg');
    expect(decide('echo x > cfg/package.json && npm test').action).toBe('deny');
    const decided = decide(`echo x > cfg/package.j${S}on && npm test`);
    expect(decided.action).toBe('deny');
    expect(decided.reason).toContain('a file npm runs');
    expect(decide(`echo x > cfg/notes.md && npm test`).action).toBe('allow');
  });
});
