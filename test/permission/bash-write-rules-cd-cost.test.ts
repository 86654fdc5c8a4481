import { describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../../src/permission/index.js';

// Every plain `cd` on a line added the folders it may lead to, each joined in full, even after
// more than eight of them had made the folder unknown and the list was no longer read: an 8 KB
// line of `cd a && ` took 51 s to judge (n³ work), blocking the event loop of serve. With the
// old code each line below ran past vitest's timeout; the test asserts the decision only.

const policy = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow' }, { tool: 'write', action: 'deny', pattern: 'src/**' }] });

describe('a line of thousands of cds before a write', () => {
  it.each([1000, 20_000])('with %i cds, judges the write as one in a folder not known (denied under src/**)', (n) => {
    const decision = policy.evaluate('bash', `${'cd a && '.repeat(n)}echo > b`);
    expect(decision.action).toBe('deny');
    expect(decision.reason).toContain('"*/b"');
  });

  it.each([1000, 20_000])('with %i cds into different folders, still denies', (n) => {
    const line = `${Array.from({ length: n }, (_, i) => `cd d${i}; `).join('')}touch b`;
    expect(policy.evaluate('bash', line).action).toBe('deny');
  });

  it('still joins a few plain cds onto the write, as before', () => {
    expect(policy.evaluate('bash', 'cd docs && cd api && echo > b').action).toBe('allow');
    expect(policy.evaluate('bash', 'cd src && cd api && echo > b').action).toBe('deny');
  });
});
