import { describe, expect, it } from 'vitest';
import { PermissionPolicy, type PermissionRule } from '../../src/permission/index.js';

// Lines that changed files under a denied folder while their writes were not read at all: git
// commands that rewrite the working tree, removals and changes of mode (deleting or changing a
// file is writing it, for the write rules), find's own output files, an exported GIT_WORK_TREE,
// commands an awk program runs, in-place editors, ssh's log and known-hosts files.

const allowBash: PermissionRule = { tool: 'bash', action: 'allow' };
const denySrc = new PermissionPolicy({ rules: [allowBash, { tool: 'write', action: 'deny', pattern: 'src/**' }] });
const askEdit = new PermissionPolicy({ rules: [allowBash, { tool: 'edit', action: 'ask', pattern: 'src/**' }] });

const ATTACKS: Readonly<Record<string, readonly string[]>> = {
  'git rewriting the working tree': [
    'git checkout main', 'git checkout -- src/a.ts', 'git checkout HEAD~1 -- src', 'git checkout HEAD -- .', "git checkout -- '*.ts'", 'git checkout -b x main',
    'git restore src/a.ts', 'git restore -s HEAD~2 src/a.ts', 'git restore --staged --worktree src/a.ts', 'git restore :/src', 'git reset --hard', 'git reset --hard HEAD~1',
    'git stash pop', 'git stash apply', 'git stash', 'git stash push -- src/a.ts', 'git merge x', 'git pull', 'git pull --rebase origin main',
    'git switch main', 'git rebase main', 'git cherry-pick abc', 'git revert abc', 'git clean -fdx', 'git clean -f src', 'git clean -f -e x',
    'git rm src/a.ts', 'git rm -r src', 'git -C . checkout main', 'git read-tree -u -m HEAD', 'git submodule update', 'git bisect start',
    'git checkout --pathspec-from-file=list',
  ],
  'removals and changes': [
    'rm src/a.ts', 'rm -f -- src/a.ts', 'rm -rf src', 'rm -r .', 'rmdir src/x', 'unlink src/a.ts', 'shred -u src/a.ts', 'touch src/a.ts',
    'touch -d yesterday src/a.ts', 'mkdir -p src/x', 'mkdir -m 700 src/x', 'chmod 644 src/a.ts', 'chmod -R 755 src', 'chmod -w src/a.ts',
    'chmod --reference=x src/a.ts', 'chown -R u:g src', 'chgrp g src/a.ts', 'truncate -s 0 src/a.ts', 'install -d src/x', 'ln -sf /etc/passwd src/a.ts',
    'ls | xargs rm', 'cd ../lib && rm a.ts',
  ],
  'find writing': ['find . -fprint src/list', 'find . -fprint0 src/list', "find . -fprintf src/x '%p'", 'find . -fls src/list', 'find src -delete', 'find . -name x -delete', 'find -L src -delete'],
  'an exported GIT_WORK_TREE or GIT_DIR': [
    'export GIT_WORK_TREE=src; git restore a.ts', 'GIT_WORK_TREE=src; export GIT_WORK_TREE; git restore a.ts', 'export GIT_DIR=/x/.git && git checkout -f',
    'declare -x GIT_WORK_TREE=src; git status', 'typeset -x GIT_WORK_TREE=src; git mv a b',
  ],
  'awk running commands': [
    `awk '{print | "sort > src/x"}' f`, `awk '{print | "sort -o src/x"}' f`, `awk '{print |& "tee src/x"}' f`, `awk 'BEGIN{system("rm src/a.ts")}'`,
    `awk 'BEGIN{system("touch src/a")}'`, `awk 'BEGIN{system(c)}'`, `awk '{print | cmd}' f`, `awk 'BEGIN{"cp y src/a" | getline}'`, `awk 'BEGIN{system("tar -xf a.tar")}'`,
  ],
  'in-place editors': [
    "perl -pi -e 's/a/b/' src/a.ts", "perl -i.bak -pe 's/a/b/' src/a.ts", "perl -pie 's/a/b/' src/a.ts", "perl -i -p script.pl src/a.ts", "ruby -i -pe 'x' src/a.ts",
    "ruby -i.orig -n -e 'print' src/a.ts", "vim -c '%s/a/b/g' -c wq src/a.ts", 'vim -es src/a.ts', 'ex -sc wq src/a.ts', "vim -c 'w src/x' -c q out/a",
    "vim -c '%s/a/\\=system(\"x\")/' -c wq out/a", 'vim -S s.vim out/a', 'vim out/a', 'nvim -es -c wq src/a.ts', 'vim -W src/keys -c wq out/a',
  ],
  'ssh files': ['ssh -E src/log host ls', 'ssh -vE src/log host', 'ssh -o UserKnownHostsFile=src/kh host', "ssh -o 'UserKnownHostsFile src/kh' host", 'ssh -S src/ctl -M host', 'scp host:x src/a.ts'],
};

describe('writes the write rules did not see, under deny write src/**', () => {
  for (const [group, lines] of Object.entries(ATTACKS)) {
    it.each(lines)(`${group}: %s is denied`, (line) => {
      const decision = denySrc.evaluate('bash', line);
      expect(decision.action).toBe('deny');
      expect(decision.reason).toMatch(/write rule \{tool: "write", action: deny, pattern: "src\/\*\*\"}/);
    });
  }

  it.each(['git checkout main', 'rm src/a.ts', 'find . -fprint src/list', "perl -pi -e 's/a/b/' src/a.ts"])('%s asks under ask edit src/**', (line) => {
    expect(askEdit.evaluate('bash', line).action).toBe('ask');
  });

  it('names what rewrites the working tree in the reason', () => {
    expect(denySrc.evaluate('bash', 'git checkout main').reason).toContain('"git checkout main", which may rewrite any path of the working tree');
    expect(denySrc.evaluate('bash', `awk '{print | "sort > src/x"}' f`).reason).toContain('awk running "sort > src/x"');
  });
});

describe('reads and writes elsewhere stay allowed under deny write src/**', () => {
  it.each([
    'git status', 'git log -p src', 'git diff src/a.ts', 'git show HEAD:src/a.ts', 'git branch -a', 'git stash list', 'git stash show -p', 'git checkout -b feature',
    'git switch -c feature', 'git restore --staged src/a.ts', 'git reset HEAD src/a.ts', 'git reset', 'git clean -n', 'git clean -f out', 'git rm --cached src/a.ts',
    'git checkout -- out/a', 'git restore out/a', 'git submodule status', 'git read-tree HEAD', 'git stash push -- out/a',
    'ls src', 'ls -la src', 'cat src/a.ts', 'find src -name x', 'find src -type f -print', 'find out -fprint out/list', 'stat src/a.ts',
    'rm out/a', 'rm -rf out', 'rm -f .git/index.lock', 'touch out/a', 'mkdir -p out/x', 'chmod +x out/run.sh', 'chmod -R 755 out',
    'export FOO=1; git status', 'export GIT_PAGER=cat; git log', 'GIT_AUTHOR_NAME=x git commit -m y',
    `awk '{print | "sort"}' src/a.ts`, `awk 'BEGIN{system("ls src")}'`, `awk '/a|b/ {print}' src/a.ts`, `awk '$1 || $2' src/a.ts`, `awk '{ "date" | getline d; print d }' f`,
    "perl -pe 's/a/b/' src/a.ts", "perl -ne 'print if /x/' src/a.ts", "ruby -e 'puts 1' src/a.ts", "vim -c '%s/a/b/g' -c wq out/a", 'ex -sc wq out/a', 'vim --version',
    'ssh -y host ls', 'ssh -oStrictHostKeyChecking=no host ls', 'ssh -E out/log host', 'scp src/a.ts host:x',
  ])('%s stays allowed', (line) => {
    expect(denySrc.evaluate('bash', line).action).toBe('allow');
  });
});

describe('removals and changes of files other programs run', () => {
  const allowRm = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow', pattern: 'rm *' }, { tool: 'bash', action: 'allow', pattern: 'chmod *' }] });

  it('leave the line readable: removing a hook or a lock runs nothing', () => {
    expect(allowRm.evaluate('bash', 'rm -f .git/index.lock').action).toBe('allow');
    expect(allowRm.evaluate('bash', 'rm -rf .vscode').action).toBe('allow');
  });

  it('still counts find writing one, with content it chooses', () => {
    const allowFind = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow', pattern: 'find *' }] });
    expect(allowFind.evaluate('bash', "find . -maxdepth 0 -fprintf .git/hooks/pre-commit 'x'").action).toBe('ask');
  });
});

describe('a cd moves the writes after it', () => {
  it.each([
    'cd ../lib && rm a.ts', 'cd $D; mkdir -p x', 'for d in lib src; do touch a.ts; cd $d; done', 'while read d; do rm a.ts; cd "$d"; done < dirs',
    'f() { touch a.ts; }; cd src; f', "trap 'touch a.ts' EXIT; cd src", 'cd $(echo src) && touch a.ts', 'git -C src restore a.ts',
  ])('%s is denied: the folder written may be src/', (line) => {
    expect(denySrc.evaluate('bash', line).action).toBe('deny');
  });

  it.each(['mkdir -p build && cd build && cmake ..', 'rm -rf dist && cd lib && npm test', 'echo x > a.ts && cd lib', 'echo $(cd src) > a.ts', 'touch a.ts; git -C src status'])(
    '%s stays allowed: its writes come before the cd, or the cd is in a subshell',
    (line) => {
      expect(denySrc.evaluate('bash', line).action).toBe('allow');
    },
  );
});
