import { describe, expect, it } from 'vitest';
import { commandParts, PermissionPolicy } from '../../src/permission/index.js';
import { commandEnvironment } from '../../src/tools/command-environment.js';

// A `cd` moves only the writes after it, unless the line may run a write again after it; a
// `cd` into a folder the line names plainly joins later writes onto it. Each line below was
// checked against bash 5.2: the denied ones write src/a.ts, the allowed ones nothing in src/.

const denySrc = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow' }, { tool: 'write', action: 'deny', pattern: 'src/**' }] });

describe('a write that runs again after the cd, however the line hides it', () => {
  it.each([
    // trap's name quoted: bash runs the builtin all the same.
    "\\trap 'echo x > a.ts' EXIT; cd src", "\"trap\" 'echo x > a.ts' EXIT; cd src", "tr''ap 'echo x > a.ts' EXIT; cd src",
    "t\\rap 'echo x > a.ts' EXIT; cd src", "$'trap' 'echo x > a.ts' EXIT; cd src", "builtin trap 'echo x > a.ts' EXIT; cd src",
    // A loop or trap inside a line another command runs.
    `eval "trap 'echo x > a.ts' EXIT"; cd src`, "eval 'for i in 1 2; do echo x > a.ts; cd src; done'",
    "bash -c 'for i in 1 2; do echo x > a.ts; cd src; done'", 'sh -c "for i in 1 2; do echo x > a.ts; cd src; done"',
    // History run again.
    'echo x > a.ts; cd src; fc -s echo', 'set -o history; echo x > a.ts; cd src; fc -s',
  ])('%s is denied', (line) => {
    expect(denySrc.evaluate('bash', line).action).toBe('deny');
  });

  it('marks the parts of such a line, and only those', () => {
    expect(commandParts("eval 'while true; do :; done'").repeats).toBe(true);
    expect(commandParts("'trap' 'rm x' EXIT").repeats).toBe(true);
    expect(commandParts('cd web && npm run build').repeats).toBeUndefined();
  });
});

describe('changes of folder that were not seen', () => {
  it.each([
    "find src -name b.ts -execdir sh -c 'echo x > a.ts' \\;", "find src -name b.ts -okdir sh -c 'echo x > a.ts' \\;",
    'env --ch=src touch a.ts', 'env --chd src touch a.ts', 'env --chdi=src touch a.ts', 'env --c=src touch a.ts',
    'sudo --chd=src touch a.ts', 'sudo --chdi src touch a.ts',
  ])('%s is denied', (line) => {
    expect(denySrc.evaluate('bash', line).action).toBe('deny');
  });
});

describe('a cd into a folder the line names plainly', () => {
  it.each([
    'cd frontend && rm -rf node_modules && npm install', 'cd web && rm -rf dist && npm run build', 'cd build && touch .stamp',
    'mkdir -p out && cd out && mkdir -p logs', 'cd ./frontend && rm -rf node_modules', 'cd lib && echo x > a.ts', 'cd a/b && echo x > ../c',
    'export NODE_ENV=production && cd web && npm run build', 'export PATH=$PATH:bin && cd web && touch .stamp', 'shopt -s nullglob; cd web && rm -rf dist',
  ])('%s is allowed: it writes under that folder', (line) => {
    expect(denySrc.evaluate('bash', line).action).toBe('allow');
  });

  it.each([
    // Into src, or back into it.
    'cd src && echo x > a.ts', 'cd ./src && echo x > a.ts', 'cd src/lib && echo x > a.ts', 'cd lib; cd ../src; echo x > a.ts',
    'cd lib; cd src; echo x > a.ts', 'cd a/b && echo x > ../../src/a.ts', 'cd lib && cp ../x ../src/',
    // The cd may fail or not move the line: the path also stands where it is.
    'cd lib 2>/dev/null; echo x > src/a.ts', '(cd lib); echo x > src/a.ts', 'cd lib | true; echo x > src/a.ts', 'cd lib > src/a.ts',
    'echo $(cd lib) $(echo x > src/a.ts)', 'echo | xargs cd lib; echo x > src/a.ts',
    // A folder not known here.
    'cd .. && echo x > a.ts', 'cd $D && echo x > a.ts', 'cd x/../src && echo x > a.ts', 'cd - && echo x > a.ts', 'cd s* && echo x > a.ts',
    'cd ~/ws/src && echo x > a.ts', 'pushd src && echo x > a.ts',
    // Lines that may make `cd lib` enter src/lib: CDPATH, cdable_vars, a variable named at run time, a sourced file.
    'CDPATH=src; cd lib && echo x > a.ts', 'export CDPATH=src; cd lib && echo x > a.ts', 'declare "CD""PATH=src"; cd lib && echo x > a.ts',
    'printf -v CDPATH src; cd lib && echo x > a.ts', 'read CDPATH <<< src; cd lib && echo x > a.ts', ': ${CDPATH:=src}; cd lib && echo x > a.ts',
    'v=CD; printf -v "${v}PATH" src; cd lib && echo x > a.ts', 'declare -n r=$v; r=src; cd lib && echo x > a.ts', 'read -r v; declare "$v"; cd lib; echo x > a.ts',
    'shopt -s cdable_vars; lib=src; cd lib; echo x > a.ts', 'o=cdable_; shopt -s ${o}vars; lib=src; cd lib; echo x > a.ts',
    'a=CD; b=PATH; eval "$a$b=src"; cd lib; echo x > a.ts', 'export "$n"=src; cd lib; echo x > a.ts', 'source x.sh; cd lib; echo x > a.ts', '. x.sh; cd lib; echo x > a.ts',
  ])('%s is denied', (line) => {
    expect(denySrc.evaluate('bash', line).action).toBe('deny');
  });
});

describe("the bash tool's environment", () => {
  it('never carries CDPATH or BASHOPTS, which move where a plain cd goes', () => {
    const base = { PATH: '/bin', CDPATH: '/ws/src', BASHOPTS: 'cdable_vars' };
    expect(commandEnvironment(undefined, base)).toEqual({ PATH: '/bin' });
    expect(commandEnvironment(() => ({ CDPATH: 'src', BASHOPTS: 'cdable_vars', HOME: '/h' }), base)).toEqual({ HOME: '/h' });
  });
});
