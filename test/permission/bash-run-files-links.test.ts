/**
 * Lines a deny rule could not read, found in review: a file make runs written through a link
 * (`cfg -> .`, `Makefile -> build/rules.txt`), a make operand with leading blanks, and
 * variables set by arithmetic or `wait -p`. Each ran `touch` (or a program from `./bin`) in real
 * bash while the line was allowed under `deny touch *`. Ordinary lines of the same kinds stay allowed.
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
  root = realpathSync(mkdtempSync(join(tmpdir(), 'bash-run-files-links-')));
  ws = join(root, 'ws');
  mkdirSync(join(ws, 'build'), { recursive: true });
  mkdirSync(join(ws, 'src'), { recursive: true });
  writeFileSync(join(ws, 'build/rules.txt'), 'all:\n\ttrue\n');
  writeFileSync(join(ws, 'package.json'), '{}');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const TOUCH: PermissionRule[] = [{ tool: 'bash', action: 'allow' }, { tool: 'bash', action: 'deny', pattern: 'touch *' }];
const DENY: PermissionRule[] = [{ tool: 'bash', action: 'allow' }, { tool: 'write', action: 'deny', pattern: 'src/**' }];
const decide = (line: string, rules: readonly PermissionRule[] = TOUCH) => new PermissionPolicy({ rules }).evaluate('bash', line, { workspace: ws });

describe('a file make runs, written through a link', () => {
  it('through a link to the workspace itself', () => {
    symlinkSync('.', join(ws, 'cfg'));
    const decided = decide('echo "all:;touch pwned" > cfg/Makefile; make');
    expect(decided.action).not.toBe('allow');
    expect(decided.reason).toContain('cfg/Makefile');
    expect(decide('echo "all:;touch pwned" > cfg/notes.txt; make').action).toBe('allow');
  });

  it('the Makefile is itself a link to the file written', () => {
    symlinkSync('build/rules.txt', join(ws, 'Makefile'));
    expect(decide('echo "all:;touch pwned" > build/rules.txt; make').action).not.toBe('allow');
    expect(decide('echo "all:;touch pwned" > build/other.txt; make').action).toBe('allow');
    expect(decide('echo "all:;touch pwned" > build/rules.txt').action).toBe('allow');
  });
});

describe('make operands and arithmetic', () => {
  it.each(["make ' CC=touch'", "make '\tCC=touch x'"])('%s sets CC: its value is judged as a command', (line) => {
    expect(decide(line).action).toBe('deny');
  });

  it.each(['let PATH=1; ls', ': $((PATH=1)); ls', 'echo $((PATH=1)) && ls', 'x[PATH=1]=2; ls', 'wait -p PATH; ls', 'let PATH++; ls', '((PATH=1)); ls'])(
    '%s changes PATH: what runs after it cannot be read',
    (line) => {
      expect(decide(line).action).toBe('deny');
    },
  );

  it.each(['let i=1; ls', 'echo $((i+1)); ls', 'i=$((i+1)); ls', 'x[1]=2; ls', 'wait -n; ls'])('%s stays allowed', (line) => {
    expect(decide(line).action).toBe('allow');
  });
});

describe('ordinary lines stay allowed with a workspace', () => {
  it.each([
    'cp package.json package.json.bak && npm install',
    'echo >> build.log; make',
    'make 2>&1 | tee make.log',
    'rm -rf node_modules package-lock.json && npm install',
    'mkdir -p build && cd build && cmake .. > cmake.log && make',
  ])('%s', (line) => {
    expect(decide(line).action).toBe('allow');
    expect(decide(line, DENY).action).toBe('allow');
  });

  it('pnpm links under node_modules are judged at their real paths', () => {
    mkdirSync(join(ws, 'node_modules/.pnpm/left-pad@1.0.0/node_modules/left-pad'), { recursive: true });
    symlinkSync('.pnpm/left-pad@1.0.0/node_modules/left-pad', join(ws, 'node_modules/left-pad'));
    expect(decide('echo x > node_modules/left-pad/index.js', DENY).action).toBe('allow');
    symlinkSync('../src', join(ws, 'node_modules/evil'));
    expect(decide('echo x > node_modules/evil/a.ts', DENY).action).toBe('deny');
  });
});

describe('programs told to read their files elsewhere, cp -T and ssh -I', () => {
  it.each([
    'echo x > sub/CMakeLists.txt; cmake -S sub -B b',
    'echo x > sub/CMakeLists.txt; cmake sub',
    'echo x > sub/justfile; just -f sub/justfile',
    'echo x > sub/justfile; just --working-directory sub',
    'echo x > sub/Rakefile; rake -f sub/Rakefile',
    'echo x > sub/build.rs; cargo build --manifest-path=sub/Cargo.toml',
  ])('%s writes a file the program then runs', (line) => {
    expect(decide(line).action).not.toBe('allow');
  });

  it.each(['echo x > sub/justfile; just', 'cargo build > build.log', 'echo x > sub/notes.txt; cmake -S sub -B b'])('%s stays allowed', (line) => {
    expect(decide(line).action).toBe('allow');
  });

  it('`cp -rT y .` fills the folder itself: any path in it', () => {
    expect(decide('cp -rT y .', DENY).action).toBe('deny');
    expect(decide('mv -T y .', DENY).action).toBe('deny');
    expect(decide('cp -rT y build', DENY).action).toBe('allow');
    expect(decide('cp -r y .', DENY).action).toBe('allow');
  });

  it('`ssh -I lib.so` loads code, as `-o PKCS11Provider=` does', () => {
    const rules: PermissionRule[] = [{ tool: 'bash', action: 'allow' }, { tool: 'bash', action: 'deny', pattern: 'rm *' }];
    expect(decide('ssh -I lib.so h', rules).action).toBe('deny');
    expect(decide('ssh -i key h', rules).action).toBe('allow');
  });
});
