import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../../src/permission/index.js';

// bash's printf parses `-vNAME` from its first word that is no option, even when that word is
// only known at run time: `fmt=-vPATH; printf "$fmt" ./bin; ls` sets PATH and runs ./bin/ls.
// Such a format is judged as `printf -v "$v"` is: unreadable under a bash deny rule.

const policy = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow', pattern: '*' }, { tool: 'bash', action: 'deny', pattern: 'rm *' }] });

/** [a line setting PATH to ./bin through printf's format, then running ls; what makes the format -vPATH] */
const RUN_TIME_FORMATS: readonly (readonly [string, string])[] = [
  ['printf "$fmt" ./bin; ls', 'fmt=-vPATH'],
  ['printf $fmt ./bin; ls', 'fmt="-v PATH"'],
  ['printf -v x "$fmt" ./bin; ls', 'fmt=-vPATH'],
  ['builtin printf "$fmt" ./bin; ls', 'fmt=-vPATH'],
  ['command printf "$fmt" ./bin; ls', 'fmt=-vPATH'],
  ['printf "$(echo -vPATH)" ./bin; ls', ':'],
  ['printf {-vPATH,./bin}; ls', ':'],
  // With a file named -vPATH, the glob's first name is the option (names sorted as in the C locale).
  ['printf * ; ls', 'touch ./-vPATH'],
];

/** Formats that are formats only. */
const FORMATS_ONLY = ['printf -- "$fmt" x', "printf '%s\\n' \"$x\"", "printf '[%s]\\n' x", 'printf "%s=%d\\n" "$k" 1', "printf '{\"a\":%s}\\n' 1"];

let dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

/** Runs `line` in a fresh folder whose ./bin/ls leaves a file `ran`; whether it ran. */
function ranBinLs(line: string): boolean {
  const dir = mkdtempSync(join(tmpdir(), 'rx-printf-format-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'bin'));
  writeFileSync(join(dir, 'bin', 'ls'), '#!/bin/sh\n: > ran\n');
  chmodSync(join(dir, 'bin', 'ls'), 0o755);
  spawnSync('bash', ['-c', line], { cwd: dir, stdio: 'ignore', timeout: 20_000, env: { ...process.env, LC_ALL: 'C' } });
  return existsSync(join(dir, 'ran'));
}

describe("printf's format only known when the line runs", () => {
  it.each(RUN_TIME_FORMATS)('%j is unreadable under a deny rule', (line) => {
    const decision = policy.evaluate('bash', line);
    expect(decision.action).toBe('deny');
    expect(decision.reason).toContain('only known when the line runs');
  });

  it.each(FORMATS_ONLY)('%j stays allowed', (line) => {
    expect(policy.evaluate('bash', line).action).toBe('allow');
  });

  it('each such format does set PATH in bash (the attacks are real), and "--" keeps it a format', () => {
    for (const [line, setup] of RUN_TIME_FORMATS) expect(ranBinLs(`${setup}; ${line}`), line).toBe(true);
    expect(ranBinLs('fmt=-vPATH; printf -- "$fmt" ./bin; ls')).toBe(false);
  }, 60_000); // bash is started for each line: a loaded machine is slow, never wrong
});
