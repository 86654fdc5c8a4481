import { describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../../src/permission/permission-policy.js';
import { bashSandbox, denyRm, denySrc, itAllowsEach, itDeniesEach } from './support/bash-sandbox.js';

const sandbox = bashSandbox('rx-gnu-names-find-plus-');

/** The line run with `gunlink`, `glink`... linked to this system's programs; a new name in src counts as a change of it. */
const linked = (line: string): string => {
  const links = ['unlink', 'link', 'mkfifo', 'mknod', 'mktemp'].map((n) => `ln -s "$(command -v ${n})" bin/g${n}`).join(' && ');
  return `mkdir bin && ${links} && PATH="$PWD/bin:$PATH" && ${line}; ls src | grep -qvx a && rm -rf src`;
};

// Every program of GNU's coreutils (and findutils, diffutils, patch, grep...) under Homebrew's
// `g` name is read as its plain name: `gunlink` removes as `unlink` does, and a user's rule on
// `unlink *` holds for it. mkfifo, mknod and mktemp make the file they name: a write.
const WRITES = [
  'gunlink src/a',
  'glink cmds src/b',
  'mkfifo src/b',
  'gmkfifo src/b',
  'mkfifo -m 600 src/b',
  'mkfifo -Z src/b',
  'mknod src/b p',
  'gmknod src/b p',
  'mktemp src/XXXXXX',
  'gmktemp src/a.XXX',
  'mktemp -p src x.XXXXXX',
  'mktemp -dp src x.XXXXXX',
  'mktemp --tmpdir=src x.XXXXXX',
];

describe('GNU programs under their g names, and the files mkfifo, mknod and mktemp make', () => {
  it('bash changes src with each (the attacks are real)', () => {
    for (const line of WRITES) expect(sandbox(linked(line)).changed, line).toBe(true);
  }, 60_000);

  it.each([...WRITES, 'grmdir src/d', 'gchgrp staff src/a', 'gpatch -p1 -i x.diff'])('%j is denied under deny write src/**', (line) => {
    expect(denySrc.evaluate('bash', line).action).toBe('deny');
  });

  it("a user's rule on the plain name holds for the g name", () => {
    const rules = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow' }, { tool: 'bash', action: 'deny', pattern: 'unlink *' }, { tool: 'bash', action: 'deny', pattern: 'cat *' }, { tool: 'bash', action: 'deny', pattern: 'head *' }] });
    for (const line of ['gunlink a', 'gcat .env', '/opt/homebrew/bin/ghead .env', 'echo .env | gxargs gcat']) expect(rules.evaluate('bash', line).action, line).toBe('deny');
  });

  it("mktemp's X's are any name: a rule on some names under the folder holds", () => {
    const rules = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow' }, { tool: 'write', action: 'deny', pattern: 'src/b*' }] });
    for (const line of ['mktemp src/XXXXXX', 'mktemp -p src XXX']) expect(rules.evaluate('bash', line).action, line).toBe('deny');
  });

  it('programs that only start with g are not read as another (control)', () => {
    const rules = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow' }, ...['unzip *', 'zip *', 'it *', 'cc *', 'pg *', 'o *'].map((pattern) => ({ tool: 'bash' as const, action: 'deny' as const, pattern }))] });
    for (const line of ['gunzip x.gz', 'gzip x', 'git status', 'gcc -c a.c', 'gpg --list-keys', 'go build']) expect(rules.evaluate('bash', line).action, line).toBe('allow');
  });
});

// find ends the command of -exec at `+` only right after `{}` (GNU's, BSD's and busybox's find):
// any other `+` is an argument of the command, and the words after it are the command's too.
const FIND_ATTACKS = [
  'find . -maxdepth 0 -exec xargs -d + rm -rf src \\; </dev/null',
  'find . -maxdepth 0 -exec xargs -E + rm -rf src \\; </dev/null',
];
// A word only known when the line runs may be `{}`: then the `+` after it ends the command.
const RUN_TIME_END = "x='{}'; find src -maxdepth 0 -exec true \"$x\" + -exec rm -rf src {} +";

describe("find's -exec ends at + only after {}", () => {
  it('bash removes src with each (the attacks are real)', () => {
    for (const line of [...FIND_ATTACKS, RUN_TIME_END]) expect(sandbox(line).changed, line).toBe(true);
  }, 60_000);

  itDeniesEach([...FIND_ATTACKS, RUN_TIME_END]);

  it('a + not after {} is the command\'s argument, find\'s own words come after the real end', () => {
    expect(sandbox('find src -exec echo + -delete \\;').changed).toBe(false);
    expect(denyRm.evaluate('bash', 'find src -exec echo + -delete \\;').action).toBe('allow');
    expect(sandbox('find src -exec echo + {} + -delete').changed).toBe(true);
    expect(denyRm.evaluate('bash', 'find src -exec echo + {} + -delete').action).toBe('deny');
  });

  itAllowsEach(['find . -exec grep -l x {} +', 'find . -exec echo + {} +', "find . -name '*.ts' -exec grep -e a -e + {} +"]);
});
