import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../../src/permission/index.js';
import { commandRuns } from '../support/system-requirement.js';

// Writes the write rules did not see: a new root (`sudo -R`, `chroot`), a work tree from git's
// configuration (`git config core.worktree`; `-c core.worktree=`, `GIT_CONFIG_*` in doubt), a variable set
// without an assignment word (`read`, `printf -v`, `for`, `${X:=v}`: with `set -a` it is exported),
// ssh's files after the host, a local forward's socket and a configuration file, less's log. And
// lines the checker had read as running more than they do (`xargs -a /dev/null -I{} touch a.ts`).

const denySrc = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow' }, { tool: 'write', action: 'deny', pattern: 'src/**' }] });
const denyRm = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow', pattern: '*' }, { tool: 'bash', action: 'deny', pattern: 'rm *' }] });

const WRITES: Readonly<Record<string, readonly string[]>> = {
  'a new root': ['sudo -R src rm a.ts', 'sudo -Rsrc rm a.ts', 'sudo --chroot=src rm a.ts', 'sudo -u x -R src touch a.ts', 'chroot src touch a.ts'],
  "git's work tree from its configuration": [
    'git config core.worktree /ws/src; git restore a.ts', 'git config core.worktree ../src && git checkout -- .', 'git --work-tree src restore a.ts',
    'GIT_DIR=x/.git git restore a.ts',
  ],
  // git 2.39 takes core.worktree from the repository's own configuration only, so these move
  // nothing there; read as moving in doubt (other versions, or a git that reads them later).
  'core.worktree given on the line (in doubt)': [
    'git -c core.worktree=/ws/src restore a.ts', 'git -c core.workTree=../src restore a.ts', 'git --config-env=core.worktree=W restore a.ts',
    'git --config-env core.worktree=W restore a.ts', 'GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.worktree GIT_CONFIG_VALUE_0=/ws/src git restore a.ts',
  ],
  'GIT_WORK_TREE set without an assignment word': [
    'set -a; read GIT_WORK_TREE <<< src; git restore a.ts', 'set -o allexport; printf -v GIT_WORK_TREE src; git restore a.ts',
    'set -a; declare GIT_WORK_TREE=src; git restore a.ts', 'set -a; readonly GIT_WORK_TREE=src; git restore a.ts',
    'set -a; for GIT_WORK_TREE in src; do git restore a.ts; done', 'set -a; : ${GIT_WORK_TREE:=src}; git restore a.ts',
    'set -a; mapfile -t GIT_DIR < f; git checkout -f', 'local GIT_WORK_TREE=src',
  ],
  "ssh's files": [
    'ssh h -E src/log', 'ssh -p 22 h -vE src/log ls', 'ssh -L src/sock:localhost:80 h', 'ssh -NL /home/u/ws/src/s:/run/s h',
    "ssh -o 'LocalForward src/s h:80' h", 'ssh -F cfg h', 'scp -F cfg a h:b', 'sftp -F cfg h', 'ssh -o Include=x h',
  ],
  "less's log": ['less -o src/log f', 'less -Osrc/log f', 'less -Ro src/log f', 'less --log-file=src/log f', 'less --LOG=src/log f'],
};

/** Lines that write nothing under src/ and stay allowed. */
const ORDINARY = [
  'ssh -F /dev/null h', 'ssh -L 8080:localhost:80 h', 'ssh -R /run/s:localhost:80 h', 'ssh h ls -E src/log', 'less -pfoo src/a.ts', 'less -R src/a.ts',
  'xargs -a /dev/null -I{} touch a.ts', 'ls | xargs -I{} echo {}', 'git config --get core.worktree',
  'read -r line < f; echo $line', 'for f in *.ts; do echo $f; done', 'echo PATH=$PATH',
];

/** Code variables set without an assignment word: deny rules could not read what runs after them. */
const CODE_VARIABLES = [
  'read PATH <<< ./bin; ls', 'printf -v PATH ./bin; ls', 'printf -vPATH ./bin; ls', 'for PATH in ./bin; do ls; done', 'unset PATH; : ${PATH:=./bin}; ls',
  'mapfile -t PATH < f; ls', 'readarray PATH < f; ls', 'set -a; read BASH_ENV <<< x.sh; bash -c true', 'select PATH in ./bin; do ls; done',
  'case ${PATH:=./bin} in x) ls;; esac',
];

let dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

describe('writes that move where they land, under deny write src/**', () => {
  for (const [group, lines] of Object.entries(WRITES)) {
    it.each(lines)(`${group}: %s is denied`, (line) => {
      expect(denySrc.evaluate('bash', line).action).toBe('deny');
    });
  }

  it.each(ORDINARY)('%s stays allowed', (line) => {
    expect(denySrc.evaluate('bash', line).action).toBe('allow');
    expect(denyRm.evaluate('bash', line).action).toBe('allow');
  });

  it.each(CODE_VARIABLES)('%s is unreadable under deny rm *', (line) => {
    const decision = denyRm.evaluate('bash', line);
    expect(decision.action).toBe('deny');
    expect(decision.reason).toMatch(/a change of (?:PATH|BASH_ENV)/);
  });

  it('every sample is valid bash', () => {
    for (const line of [...Object.values(WRITES).flat(), ...ORDINARY, ...CODE_VARIABLES]) {
      expect(spawnSync('bash', ['-n', '-c', line]).status, line).toBe(0);
    }
  });

  it.runIf(commandRuns('git', ['--version'], 'git'))('git writes where these lines say (the attacks are real)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rxharness-write-moves-'));
    dirs.push(dir);
    const git = (line: string): void => void spawnSync('bash', ['-c', line], { cwd: dir, timeout: 20_000 });
    mkdirSync(join(dir, 'src'));
    git('git init -q && echo orig > a.ts && git add a.ts && git -c user.name=x -c user.email=x@x commit -qm i');
    for (const line of [`git config core.worktree ${dir}/src; git restore a.ts; git config --unset core.worktree`, 'set -a; read GIT_WORK_TREE <<< src; git restore a.ts', 'read PATH <<< ./bin; ls']) {
      writeFileSync(join(dir, 'src', 'a.ts'), 'changed');
      mkdirSync(join(dir, 'bin'), { recursive: true });
      writeFileSync(join(dir, 'bin', 'ls'), '#!/bin/sh\necho orig > src/a.ts\n', { mode: 0o755 });
      git(line);
      expect(readFileSync(join(dir, 'src', 'a.ts'), 'utf8').trim(), line).toBe('orig');
    }
  });

  it.runIf(commandRuns('ssh', ['-V'], 'openssh-client'))('ssh reads its options after the host (the -E log is real)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rxharness-write-moves-'));
    dirs.push(dir);
    // -G prints the configuration and exits: nothing connects, and the log is still opened.
    spawnSync('ssh', ['-G', 'h', '-E', join(dir, 'log')], { cwd: dir, timeout: 20_000 });
    expect(existsSync(join(dir, 'log'))).toBe(true);
  });
});
