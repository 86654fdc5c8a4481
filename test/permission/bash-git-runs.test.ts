import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PermissionPolicy, type PermissionRule } from '../../src/permission/index.js';
import { own } from '../support/collect-events.js';
import { runHostileCalls, tempWorkspace } from './tool-calls-over-http.js';

// git runs commands from its own options and configuration: under the guide's rules
// (`allow git *`, `deny rm *`) `git -c alias.x='!rm -rf y' x`, `git rebase -x 'rm x'` or
// `git config core.pager 'rm x'` ran rm unasked. A git call that can run a command the line
// does not show is now a line the checker cannot read: denied while a deny rule is in force.

const RULES: PermissionRule[] = [
  { tool: 'bash', action: 'allow', pattern: 'git *' },
  { tool: 'bash', action: 'deny', pattern: 'rm *' },
];

/** [the line, what the reason must say]. */
const ATTACKS: readonly (readonly [string, string])[] = [
  ["git -c core.pager='rm -rf x' log", '("git -c core.pager=rm -rf x")'],
  ["git -c alias.x='!rm -rf y' x", 'git configuration set on the command line'],
  ['git -c user.name=x commit -m y', 'git configuration set on the command line'],
  ['git -C . -c core.fsmonitor=./f status', 'git configuration set on the command line'],
  ['git --no-pager -c core.sshCommand=x fetch', 'git configuration set on the command line'],
  ['git --config-env=core.pager=V log', '("git --config-env=core.pager=V")'],
  ['git --config-env core.pager=V log', 'git configuration set on the command line'],
  ['git --exec-path=./bin status', 'a git option that runs programs'],
  ['git --git-dir=evil status', 'a git option that runs programs or reads configuration'],
  ["git rebase -x 'rm x' main", '("git rebase -x")'],
  ["git rebase -ix 'rm x' main", '("git rebase -ix")'],
  ["git rebase --exec 'rm x' main", '("git rebase --exec")'],
  ["git rebase --exec='rm x' main", '("git rebase --exec=rm x")'],
  ["git rebase --ex 'rm x' main", 'a git option that runs a command'],
  ['git bisect run rm x', '("git bisect run")'],
  ["git submodule --quiet foreach 'rm x'", '("git submodule foreach")'],
  ["git difftool -x 'rm x' HEAD", '("git difftool -x")'],
  ["git difftool --extcmd='rm x' HEAD", 'a git option that runs a command'],
  ["git fetch --upload-pack='rm x' origin", '("git fetch --upload-pack=rm x")'],
  ["git pull --upload-pack 'rm x' origin", 'a git option that runs a command'],
  ["git clone -u 'rm x' src dst", '("git clone -u")'],
  ['git clone --template=./t src dst', 'a git option that runs a command'],
  ['git clone -c core.hooksPath=h src dst', '("git clone -c")'],
  ["git ls-remote --upload-pack='rm x' origin", 'a git option that runs a command'],
  ["git push --receive-pack='rm x' origin", 'a git option that runs a command'],
  ["git push --exec='rm x' origin", 'a git option that runs a command'],
  ["git archive --remote=origin --exec='rm x' HEAD", 'a git option that runs a command'],
  ['git init --template=./t', 'a git option that runs a command'],
  ["git grep -O'rm x' foo", '("git grep -Orm x")'],
  ["git grep -nO'rm x' foo", 'a git option that runs a command'],
  ["git grep --open-files-in-pager='rm x' foo", 'a git option that runs a command'],
  ["git filter-branch --tree-filter 'rm x' HEAD", 'git filter-branch'],
  ["git send-email --to-cmd='rm x' p.patch", 'git send-email'],
  ["git daemon --access-hook='rm x' .", 'a git option that runs a command'],
  ['git hook run pre-commit', '("git hook run")'],
  ["git clone 'ext::sh -c rm% x' dst", 'a git remote that runs a command'],
  ["git config alias.x '!rm -rf z'", '("git config alias.x")'],
  ["git config --global alias.x '!rm -rf z'; git x", '("git config alias.x")'],
  ["git config core.pager 'rm x'", '("git config core.pager")'],
  ["git config core.sshCommand 'rm x'", 'a git setting that can run a command later'],
  ['git config core.fsmonitor ./f', 'a git setting that can run a command later'],
  ['git config core.hooksPath h', 'a git setting that can run a command later'],
  ["git config core.editor 'rm x'", 'a git setting that can run a command later'],
  ["git config sequence.editor 'rm x'", 'a git setting that can run a command later'],
  ["git config diff.external 'rm x'", 'a git setting that can run a command later'],
  ["git config filter.f.smudge 'rm x'", 'a git setting that can run a command later'],
  ["git config credential.helper '!rm x'", 'a git setting that can run a command later'],
  ['git config include.path ./evil.cfg', 'a git setting that can run a command later'],
  ["git config --add alias.x '!rm x'", 'a git setting that can run a command later'],
  ["git config --type=bool --file .git/config alias.x '!rm x'", 'a git setting that can run a command later'],
  ["git config set alias.x '!rm x'", '("git config alias.x")'],
  ['git config --rename-section user alias', 'a git setting renamed'],
  ["timeout 5 git -c alias.x='!rm y' x", 'git configuration set on the command line'],
  ['GIT_COMMON_DIR=evil git status', 'a change of GIT_COMMON_DIR'],
  ['GIT_ALLOW_PROTOCOL=ext git fetch origin', 'a change of GIT_ALLOW_PROTOCOL'],
  ["GIT_DIFFTOOL_EXTCMD='rm x' git difftool HEAD", 'a change of GIT_DIFFTOOL_EXTCMD'],
  ["git submodule--helper foreach 'rm x'", 'an internal git helper'],
  // Words only known when git runs: one may be `-c`, `--upload-pack=...` or `--output=...`.
  ["C=-c; git $C alias.x='!rm -f victim' x", 'a git call with a word only known when it runs ("$C")'],
  ["IFS=; O='--upload-pack=rm -rf victim;:'; git fetch $O origin", '("$O")'],
  ["git r?base -x 'touch p' main", 'a git call with a word only known when it runs ("r?base")'],
  ['git rebase $X main', '("$X")'],
  ['R=--output=.git/config; git log -1 --format=%B $R', '("$R")'],
  ['git -C $DIR -c core.pager=x log', 'a git call with a word only known when it runs ("$DIR")'],
  ['git diff $(cat opts)', 'a git call with a word only known when it runs'],
  ['git config $K x', '("$K")'],
];

/** Everyday git, which must keep running unasked under `allow git *`. */
const ORDINARY = [
  'git status',
  'git log -p',
  'git log -c --stat',
  'git -C sub status',
  'git --no-pager diff HEAD~1',
  'git commit -m "x -c y"',
  'git commit -m "rebase -x later"',
  'git switch -c feature',
  'git checkout -b x',
  'git grep -c foo',
  'git grep -e -O src',
  'git rebase -i main',
  'git rebase -Xours main',
  'git push --repo=origin',
  'git push origin main',
  'git fetch --prune origin',
  'git clone https://example.com/r.git',
  'git bisect start',
  'git submodule update --init',
  'git config user.name x',
  'git config --global user.email a@b.c',
  'git config pull.rebase true',
  'git config branch.feature.x.remote origin',
  'git config --get core.pager',
  'git config core.pager',
  'git config --unset alias.x',
  'git config --list',
  'git config get core.pager',
  'git --version',
  'git --exec-path',
  'git constructor --exec x', // no git command, and no key of a lookup table
  'git toString run',
  // Run-time words after a command with no option that runs a command or writes a file.
  'git log --oneline',
  'git commit -m "$MSG"',
  'git add $f',
  'git add src/*.ts',
  'git status -- $f',
  'git checkout $BRANCH',
  "git log --grep ''",
];

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

describe('git running commands from its options and configuration', () => {
  const policy = new PermissionPolicy({ rules: RULES });

  it.each(ATTACKS)('%j is denied under allow git * and deny rm *, saying why', (line, why) => {
    const decision = policy.evaluate('bash', line);
    expect(decision.action).toBe('deny');
    expect(decision.reason).toContain(why);
  });

  it.each(ORDINARY)('%j stays allowed', (line) => {
    expect(policy.evaluate('bash', line)).toMatchObject({ action: 'allow' });
  });

  it('asks (not allows) under allow git * alone, since the pattern vouches only for what the line shows', () => {
    const allowGit = new PermissionPolicy({ rules: [RULES[0]!] });
    expect(allowGit.evaluate('bash', "git -c alias.x='!rm y' x").action).toBe('ask');
  });

  it('is refused in a real run before anything runs, and the file is kept', async () => {
    const ws = await tempWorkspace('rxharness-git-runs-');
    cleanup = ws.cleanup;
    await writeFile(join(ws.dir, 'victim'), 'keep me');
    const events = await runHostileCalls(ws.dir, [{ name: 'bash', arguments: { command: "git -c alias.x='!rm -f victim' x" } }], {
      permissionRules: RULES,
    });
    expect(own(events, 'ToolCallEnd').map((e) => e.error)).toEqual([
      'Permission denied: denied: the command has git configuration set on the command line, which can make git run a command ' +
        '("git -c alias.x=!rm -f victim"), so the bash deny rules cannot check it',
    ]);
    expect(existsSync(join(ws.dir, 'victim'))).toBe(true);
  });

  it('refuses a git option held in a variable in a real run, and the file is kept', async () => {
    const ws = await tempWorkspace('rxharness-git-runs-dynamic-');
    cleanup = ws.cleanup;
    await writeFile(join(ws.dir, 'victim'), 'keep me');
    const command = "C=-c; git $C alias.x='!rm -f victim' x";
    const events = await runHostileCalls(ws.dir, [{ name: 'bash', arguments: { command } }], { permissionRules: RULES });
    expect(own(events, 'ToolCallEnd').map((e) => e.error)).toEqual([
      'Permission denied: denied: the command has a git call with a word only known when it runs ("$C"), which may be an option ' +
        'that runs a command or writes a file git runs, so the bash deny rules cannot check it',
    ]);
    expect(existsSync(join(ws.dir, 'victim'))).toBe(true);
  });
});
