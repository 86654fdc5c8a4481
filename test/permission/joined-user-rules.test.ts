import { describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../../src/permission/permission-policy.js';
import type { PermissionRule } from '../../src/permission/permission-rule.js';

// A policy joins the engine's rules and its agent's once, when it is made (every decision
// reads them). What could go wrong: policies sharing one joined list, or a list that a
// caller's later change to its own array would have to reach.

describe('PermissionPolicy: engine and agent rules joined once', () => {
  it('children of one policy decide by their own rules, not a sibling’s', () => {
    const engine = new PermissionPolicy({ rules: [{ tool: 'task', action: 'allow' }] });
    const strict = engine.child([{ tool: 'task', action: 'deny', pattern: 'alpha' }]);
    const loose = engine.child([{ tool: 'task', action: 'deny', pattern: 'beta' }]);
    expect(strict.evaluate('task', 'alpha').action).toBe('deny');
    expect(strict.evaluate('task', 'beta').action).toBe('allow');
    expect(loose.evaluate('task', 'alpha').action).toBe('allow');
    expect(loose.evaluate('task', 'beta').action).toBe('deny');
    expect(engine.evaluate('task', 'alpha').action).toBe('allow');
  });

  it('copies the arrays it was given: a caller pushing to its array later changes no decision', () => {
    const rules: PermissionRule[] = [{ tool: 'read', action: 'allow' }];
    const agentRules: PermissionRule[] = [];
    const policy = new PermissionPolicy({ rules, agentRules });
    rules.push({ tool: 'read', action: 'deny', priority: 9 });
    agentRules.push({ tool: 'read', action: 'deny', priority: 9 });
    expect(policy.evaluate('read', 'a.txt').action).toBe('allow');
    expect(Object.isFrozen(policy.rules) && Object.isFrozen(policy.agentRules)).toBe(true);
  });

  it('an untrusted agent’s allow rules stay dropped from what it decides by (narrowOnly)', () => {
    const engine = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'deny', pattern: 'rm *' }] });
    const untrusted = engine.child([{ tool: 'bash', action: 'allow', pattern: 'rm *', priority: 99 }], { narrowOnly: true });
    expect(untrusted.evaluate('bash', 'rm -rf x').action).toBe('deny');
    expect(untrusted.allowsOutsideWorkspace('read', '/etc/passwd')).toBe(false);
  });
});
