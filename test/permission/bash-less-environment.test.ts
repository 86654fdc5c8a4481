import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../../src/permission/index.js';
import { commandRuns } from '../support/system-requirement.js';

// `$LESS` read as less reads it (less 590, `man less`): a dash is optional, options run on
// without a break, a string value ends at `$`. A `k` in a harmless value (`--squeeze-blank-lines`,
// `--no-keypad`, a prompt) is no lesskey file; `LESS=kkeys` (no dash) is one, as `Rosrc/a.ts` is a log file.

const policy = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow', pattern: '*' }, { tool: 'bash', action: 'deny', pattern: 'rm *' }] });
const writeRules = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow', pattern: '*' }, { tool: 'write', action: 'deny', pattern: 'src/**' }] });

/** Common values that run nothing and write nothing. */
const HARMLESS = ['-R', '-FRX', '--mouse', '-i', '-R --squeeze-blank-lines', '-R --no-keypad', '--use-backslash -R', '-Ps[back]k-word', '-j5 --quit-if-one-screen'];

/** Values that load a lesskey file (key bindings running a shell, `LESSOPEN`) or run an initial command. */
const RUNNING = ['-k keys', '-kkeys', '-Rk keys', 'kkeys', 'Rkkeys', '--lesskey-file=keys', '--lesskey-src=keys.src', '--lesskey-s=keys.src', '--lesskey-content=x', '-P x$k keys', '+!rm v', '-R ++!rm v', '-o'];

/** Values naming src/a.ts as less's log file. */
const LOGS = ['-o src/a.ts', '-O src/a.ts', '-osrc/a.ts', '--log-file=src/a.ts', '--LOG-FILE=src/a.ts', '--log=src/a.ts', 'Rosrc/a.ts', '-Pfoo$-osrc/a.ts', '-j5osrc/a.ts', '-x4Osrc/a.ts', '-b2osrc/a.ts'];

let dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

describe("less's options in $LESS", () => {
  it.each(HARMLESS)('LESS=%j stays allowed', (value) => {
    for (const line of [`LESS='${value}' git log`, `export LESS='${value}'; man ls`, `MORE='${value}' more x`]) {
      expect(policy.evaluate('bash', line).action, line).toBe('allow');
      expect(writeRules.evaluate('bash', line).action, line).toBe('allow');
    }
  });

  it('a value holding a $ is unreadable, even a prompt\'s literal one: once quotes are gone, it cannot be told from an expansion ("$X", "$LESS -R") whose value the line does not show', () => {
    for (const line of [`LESS='-Ps[back]k-word$-R' git log`, 'LESS="$X" less x', 'L=--lesskey-src=k; LESS=$L less x']) {
      const decision = policy.evaluate('bash', line);
      expect(decision.action, line).toBe('deny');
      expect(decision.reason, line).toContain('a change of LESS');
    }
  });

  it.each(RUNNING)('LESS=%j is unreadable: it may run a command (or log to a file named by less\'s first argument)', (value) => {
    for (const line of [`LESS='${value}' git log`, `export LESS='${value}'; man ls`, `LESS+='${value}' less x`]) {
      const decision = policy.evaluate('bash', line);
      expect(decision.action, line).toBe('deny');
      expect(decision.reason, line).toContain('a change of LESS');
    }
  });

  it.each(LOGS)('LESS=%j is a write of src/a.ts', (value) => {
    for (const line of [`LESS='${value}' git log`, `export LESS='${value}'; man ls`]) {
      const decision = writeRules.evaluate('bash', line);
      expect(decision.action, line).toBe('deny');
      expect(decision.reason, line).toContain('writes "src/a.ts"');
    }
  });

  it('$MORE names a log file too (less run as more reads it)', () => {
    expect(writeRules.evaluate('bash', "MORE='-osrc/a.ts' git log").reason).toContain('writes "src/a.ts"');
  });

  it('a prompt runs to its "$": what it holds is no option', () => {
    expect(writeRules.evaluate('bash', "LESS='-Ps -o src/a.ts' git log").action).toBe('allow');
    expect(policy.evaluate('bash', "LESS='-Ps -k keys' git log").action).toBe('allow');
  });

  it.runIf(commandRuns('less', ['--version'], 'less') && commandRuns('script', ['--version'], 'bsdutils'))(
    'less reads these spellings for real (the attacks are real)',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'rx-less-env-'));
      dirs.push(dir);
      writeFileSync(join(dir, 'in.txt'), 'x');
      // A lesskey source whose `#env` sets LESSOPEN, which less runs on opening in.txt.
      writeFileSync(join(dir, 'keys.src'), '#env\nLESSOPEN=|touch ran; cat %s\n');
      const open = "LESS='-R --lesskey-s=keys.src' less in.txt";
      spawnSync('bash', ['-c', open], { cwd: dir, timeout: 20_000, stdio: 'ignore' });
      expect(existsSync(join(dir, 'ran'))).toBe(true);
      expect(policy.evaluate('bash', open).action).toBe('deny');
      // Without a dash, after another option: less keeps a log only on a terminal, which `script` gives it.
      const log = "script -qc \"echo x | LESS='Rolog.txt' less -E\" /dev/null";
      spawnSync('bash', ['-c', log], { cwd: dir, timeout: 20_000, stdio: 'ignore' });
      expect(existsSync(join(dir, 'log.txt'))).toBe(true);
      expect(new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow', pattern: '*' }, { tool: 'write', action: 'deny', pattern: 'log.txt' }] }).evaluate('bash', log).action).toBe('deny');
    },
  );
});
