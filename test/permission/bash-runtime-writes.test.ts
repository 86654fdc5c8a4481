import { describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../../src/permission/index.js';
import { bashSandbox, denyRm, denySrc } from './support/bash-sandbox.js';

const sandbox = bashSandbox('rx-runtime-writes-');
/** Bash allowed, no write rule: nothing but the bash rules judges a line. */
const bashOnly = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow' }] });
/** Bash allowed, writes under src/ asked about. */
const askSrc = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow' }, { tool: 'write', action: 'ask', pattern: 'src/**' }] });

// A command name only known when the line runs, which then changes or removes src/a (or makes a name in src/).
const LINES = [
  'm=rm; $m src/a',
  'm=cp; $m cmds src/a',
  'x=r; ${x}m src/a',
  'a=(rm src/a); "${a[@]}"',
  'set -- rm src/a; "$@"',
  'IFS=_; x=rm_src/a; $x',
  'm="rm src/a"; $m',
  'm=tee; echo x | $m src/a',
];
const MKTEMP = 'export TMPDIR=src; m=mktemp; $m';

describe('a command name only known when it runs, under the write rules', () => {
  it.each(LINES)('%s really changes src/a', (line) => {
    expect(sandbox(line).changed).toBe(true);
  });
  it('the mktemp line really makes a name in src', () => {
    expect(sandbox(`(${MKTEMP}); ls -A src | grep -qvx a && rm -rf src`).changed).toBe(true);
  });
  it.each([...LINES, MKTEMP])('%s is denied under deny write src/**, the reason naming the unseen command', (line) => {
    const { action, reason } = denySrc.evaluate('bash', line);
    expect(action).toBe('deny');
    expect(reason).toContain('a command name only known when it runs');
    expect(reason).toContain('which may write any path');
  });
  it('asks under an ask write rule', () => {
    expect(askSrc.evaluate('bash', 'm=rm; $m src/a').action).toBe('ask');
  });
  it('without a write rule in play such a line is judged by the bash rules alone, as before', () => {
    for (const line of LINES) expect(bashOnly.evaluate('bash', line).action, line).toBe('allow');
  });
  it('commands whose name the line shows keep their own reading', () => {
    expect(denySrc.evaluate('bash', 'ls $d').action).toBe('allow');
    expect(denySrc.evaluate('bash', 'echo "$x" > out.txt').action).toBe('allow');
    expect(denySrc.evaluate('bash', 'rm "$f"').action).toBe('deny');
  });
});

describe('reasons quote a run-time command name as written', () => {
  it.each([
    ['x=r; ${x}m src/a', '"${x}m"'],
    ['a=(rm src/a); "${a[@]}"', '"${a[@]}"'],
    ['m=rm; $m src/a', '"$m"'],
  ])('%s names %s', (line, name) => {
    expect(denyRm.evaluate('bash', line).reason).toContain(`(${name})`);
    expect(denySrc.evaluate('bash', line).reason).toContain(`(${name})`);
  });
});
