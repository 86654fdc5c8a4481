import { describe, expect, it } from 'vitest';
import { PermissionPolicy, type PermissionRule } from '../../src/permission/index.js';

// sed's writes were read as a file for every letter `w` in any argument, each holding the
// rest of the word: an 8 KB sed line took a minute to judge (and blocked the event loop of
// serve). The script is now read command by command, and a line with more writes than the
// cap is judged as writing any path. These lines are decided here (the test's timeout guards
// against a reading that freezes); what each costs is measured by `bench/policy-cost.ts`.

const RULES: PermissionRule[] = [{ tool: 'bash', action: 'allow' }, { tool: 'write', action: 'deny', pattern: 'src/**' }];
const policy = new PermissionPolicy({ rules: RULES });
const bashOnly = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow' }] });

describe('judging a long sed line', () => {
  it.each([
    ['a script of 550 substitutions', `sed -e '${'s/window/wow/g;'.repeat(550)}' x`],
    ['4000 "w" commands in a row', `sed '${'w '.repeat(4000)}' x`],
    ['4000 "w" letters in a word', `sed '${'w?'.repeat(4000)}' x`],
  ])('decides %s, with and without write rules', (_name, line) => {
    for (const p of [policy, bashOnly]) expect(p.evaluate('bash', line).action).toBe('allow');
  });

  it('judges a line of more than 64 writes as writing any path', () => {
    const line = `echo x ${Array.from({ length: 500 }, (_, i) => `> out/o${i}`).join(' ')}`;
    expect(policy.evaluate('bash', line).action).toBe('deny');
    expect(policy.evaluate('bash', line).reason).toContain('500 writes (over 64)');
    expect(policy.evaluate('bash', `echo x ${Array.from({ length: 60 }, (_, i) => `> out/o${i}`).join(' ')}`).action).toBe('allow');
  });

  it('judges a path hundreds of folders deep as any path', () => {
    expect(policy.evaluate('bash', `echo x > /${'a/?'.repeat(1500)}`).action).toBe('deny');
  });
});
