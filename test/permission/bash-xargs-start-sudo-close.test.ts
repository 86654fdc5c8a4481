import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../../src/permission/index.js';

// xargs's command start is known: its options end at the first operand (getopt's `+`), and
// what it reads is appended to that command, or put in place of its `-I` placeholder. So
// `xargs mv -t d/` runs mv, not `d/` nor a later `rm` word. `-n N` after `-I` (but `-n 1`)
// drops the placeholder, and `--process-slot-var NAME` sets NAME for the command. sudo's
// `-C N` closes descriptors: no change of folder (that is `-D`, and env's `-C`).

const denyRm = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow', pattern: '*' }, { tool: 'bash', action: 'deny', pattern: 'rm *' }] });
const denySrc = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow' }, { tool: 'write', action: 'deny', pattern: 'src/**' }] });

/** Lines that run no rm (nor code from elsewhere) with `y` as input. */
const HARMLESS = [
  'xargs mv -t d/', 'find . -name "*.log" | xargs mv -t logs/', 'xargs -0 cp -t out/', 'xargs mv -t d/ rm',
  'xargs -I{} mv -t d/ {}', 'xargs -I {} cp -t out/ {}', 'xargs --replace={} cp -t out/ {}', 'xargs cp --target-directory=out/',
  'xargs echo rm y', 'xargs -a l mv -t d/', 'xargs -E rm mv -t d/', 'xargs -rn1 -P2 cp -t out/',
];

/** Lines that run rm (or a program the line does not show) with `rm y` or `y` as input: still denied. */
const RUNS_RM = [
  'xargs rm', 'xargs -- rm', 'xargs -I{} rm {}', 'xargs -i rm {}', 'xargs -e rm mv', 'xargs --eof rm', 'xargs -a l rm', 'xargs --arg-file=l rm',
  'xargs nice rm', 'xargs env', 'xargs timeout 5', 'xargs sh -c', 'xargs sh -c "rm y"', 'xargs -I{} sh -c {}', 'xargs -IR sh -c R',
  'xargs mv -t "$(rm y)"', 'xargs mv -t d/ >o; rm y', 'xargs -n 5 >o rm', 'xargs --process-slot-var=PATH ls', 'xargs --process-slot-var PATH ls', 'xargs --process-slot-var=PATH ls >o',
];

const dir = mkdtempSync(join(tmpdir(), 'rx-xargs-start-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Runs `line` in bash, `input` on its input, in a sandbox whose `rm` (first on PATH) and `0/ls`
 * (run with `PATH=0`) leave a mark: whether either ran, and the sandbox.
 */
function run(line: string, input: string): { ran: boolean; box: string } {
  const box = mkdtempSync(join(dir, 'box-'));
  for (const sub of ['bin', '0', 'd', 'logs', 'out', 'src']) mkdirSync(join(box, sub));
  for (const script of ['bin/rm', '0/ls']) {
    writeFileSync(join(box, script), `#!/bin/sh\necho ran > ${join(box, 'ran')}\n`);
    chmodSync(join(box, script), 0o755);
  }
  for (const file of ['y', 'rm', 'a.log', 'src/a']) writeFileSync(join(box, file), '');
  writeFileSync(join(box, 'l'), 'y\n');
  const env = { ...process.env, PATH: `${join(box, 'bin')}:${process.env['PATH'] ?? ''}` };
  spawnSync('bash', ['-c', line], { cwd: box, env, encoding: 'utf8', timeout: 20_000, input });
  return { ran: existsSync(join(box, 'ran')), box };
}

describe("xargs's command starts where its options end", () => {
  it.each(HARMLESS)('%j is allowed under deny rm *', (line) => {
    expect(denyRm.evaluate('bash', line).action).toBe('allow');
  });

  it.each(RUNS_RM)('%j is denied under deny rm *', (line) => {
    expect(denyRm.evaluate('bash', line).action).toBe('deny');
  });

  it('bash runs rm (or 0/ls) in each denied line, and in no allowed one (the tables are honest)', () => {
    for (const line of RUNS_RM) expect(run(line, 'rm y\n').ran || run(line, 'y\n').ran, line).toBe(true);
    for (const line of HARMLESS) expect(run(line, 'y\n').ran, line).toBe(false);
  }, 120_000);

  it('--process-slot-var is judged as the setting it makes', () => {
    expect(denyRm.evaluate('bash', 'xargs --process-slot-var=PATH ls').reason).toContain('a change of PATH');
    expect(denyRm.evaluate('bash', 'xargs --process-slot-var=a.b ls').reason).toContain('a change of a variable no shell assigns ("a.b")');
    expect(denyRm.evaluate('bash', 'xargs --process-slot-var=SLOT ls').action).toBe('allow');
  });
});

describe('what xargs appends is still written', () => {
  it('mv removes its sources: `xargs mv -t d/` may move src/a away, and stays denied under deny write src/**', () => {
    expect(denySrc.evaluate('bash', 'xargs mv -t d/').action).toBe('deny');
    expect(existsSync(join(run('xargs mv -t d/', 'src/a\n').box, 'src/a'))).toBe(false);
  });

  it('-n N after -I (but -n 1) drops the placeholder, so xargs appends what it reads', () => {
    for (const line of ['xargs -I{} -n 2 /bin/rm -f x.ts', 'xargs -I{} --max-args=2 touch x.ts', 'xargs -I{} -n1 -n2 touch x.ts']) {
      expect(denySrc.evaluate('bash', line).action, line).toBe('deny');
    }
    expect(existsSync(join(run('xargs -I{} -n 2 /bin/rm -f x.ts', 'src/a\n').box, 'src/a'))).toBe(false);
    expect(existsSync(join(run('xargs -I{} -n 2 touch x.ts', 'src/b\n').box, 'src/b'))).toBe(true);
    // `-n 1` is ignored with -I: only x.ts is written.
    expect(denySrc.evaluate('bash', 'xargs -I{} -n 1 touch x.ts').action).toBe('allow');
    expect(existsSync(join(run('xargs -I{} -n 1 touch x.ts', 'src/b\n').box, 'src/b'))).toBe(false);
  });
});

describe("sudo's -C / --close-from is no change of folder", () => {
  it.each(['sudo -C 3 tee x', 'sudo --close-from=3 tee x', 'sudo -nC 3 tee x', 'sudo -u root -C3 -- tee x'])('%j is allowed under deny write src/**', (line) => {
    expect(denySrc.evaluate('bash', line).action).toBe('allow');
  });

  it("sudo's -D / -R and env's -C still move every later relative write, also next to sudo's -C", () => {
    for (const line of ['sudo -C 3 -D src tee x', 'sudo -C3 -R / tee x', 'sudo -C 3 env -C src tee x', 'env -C src tee x', 'sudo -C -D tee x']) {
      expect(denySrc.evaluate('bash', line).reason, line).toContain('"*/x"');
    }
    // env's -C is a change of folder in real bash (sudo is not installed here).
    expect(existsSync(join(run('env -C src tee x', '').box, 'src/x'))).toBe(true);
  });
});
