import { describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../../src/permission/index.js';

// Writes set by what the line puts in front of a command or hands to xargs: `GIT_WORK_TREE=src
// git checkout -- .` fills src/, `WGETRC=f wget` may write anywhere, `xargs -I R cp y R`
// writes where its input says, as `{}` does. Applied with apply-xargs-and-assignments.py.

const denySrc = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow' }, { tool: 'write', action: 'deny', pattern: 'src/**' }] });

describe('writes set by assignments and xargs placeholders, under deny write src/**', () => {
  it.each([
    'GIT_WORK_TREE=src git checkout -- .', 'env GIT_WORK_TREE=src git checkout -- .', 'WGETRC=cfg wget http://x/y',
    "echo src | xargs -I% sh -c 'echo x > %/a'", 'echo src/a | xargs -I DIR cp y DIR', 'echo src/a | xargs -IX cp y X',
    'echo src/a | xargs --replace=Q cp y Q',
  ])('%s is denied', (line) => {
    expect(denySrc.evaluate('bash', line).action).toBe('deny');
  });

  it.each(['GIT_WORK_TREE=/tmp/x git status', 'echo a | xargs -I % echo % > out.txt', 'echo a | xargs -I r ls r'])('%s stays allowed', (line) => {
    expect(denySrc.evaluate('bash', line).action).toBe('allow');
  });

  it('still judges the words as written against the bash rules', () => {
    const policy = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow' }, { tool: 'bash', action: 'deny', pattern: 'rm *' }] });
    expect(policy.evaluate('bash', 'echo a | xargs -I r rm r').action).toBe('deny');
  });
});
