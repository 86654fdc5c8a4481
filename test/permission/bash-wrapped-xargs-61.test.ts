import { describe, expect, it } from 'vitest';
import { bashSandbox, denyRm, itDeniesEach } from './support/bash-sandbox.js';

// `exec`, `command`, `builtin` and `time` run their command as a wrapper's: an xargs behind them
// still appends what it reads (`echo src/a | exec xargs rm` removes src/a), so it is read as there.

const sandbox = bashSandbox('rx-wrapped-xargs-');

const ATTACKS: readonly (readonly [string, string])[] = [
  ['exec xargs rm', 'src/a\n'],
  ['time xargs rm', 'src/a\n'],
  ['time -p xargs rm', 'src/a\n'],
  ['command xargs rm', 'src/a\n'],
  ['exec xargs -0 rm', 'src/a'],
  ['exec -a x xargs rm', 'src/a\n'],
  ['command xargs find src', '-delete\n'],
  ['exec xargs find src', '-delete\n'],
  ['time xargs find src', '-delete\n'],
  ['command -p xargs find src', '-delete\n'],
  ['builtin command xargs find src', '-delete\n'],
];

describe('an xargs behind exec, command, builtin or time', () => {
  it('bash removes src/a with each (the attacks are real)', () => {
    for (const [line, input] of ATTACKS) expect(sandbox(line, { input }).changed, line).toBe(true);
  }, 60_000);

  itDeniesEach(ATTACKS.map(([line]) => line));

  it.each(['command -v rm', 'command ls', 'exec ls -l', 'time grep rm x', 'command xargs grep x'])('%j is allowed under deny rm *', (line) => {
    expect(denyRm.evaluate('bash', line).action).toBe('allow');
  });
});
