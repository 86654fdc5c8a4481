import { describe, expect, it } from 'vitest';
import { PermissionPolicy, type PermissionRule } from '../../src/permission/index.js';

// The rules of an untrusted definition (from the workspace) only narrow its agent.
describe('a child policy with narrowOnly', () => {
  const engine = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow', pattern: 'git *' }] });
  const loosening: PermissionRule[] = [
    { tool: 'bash', action: 'allow', priority: 100 },
    { tool: 'read', action: 'allow', pattern: '/etc/**' },
    { tool: 'write', action: 'deny', pattern: 'dist/**' },
    { tool: 'bash', action: 'ask', pattern: 'git push*', priority: 5 },
  ];

  it('drops its allow rules and keeps its deny and ask rules', () => {
    const child = engine.child(loosening, { narrowOnly: true });
    expect(child.narrowOnly).toBe(true);
    expect(child.agentRules).toEqual([loosening[2], loosening[3]]);
    expect(child.evaluate('bash', 'make').action).toBe('ask');
    expect(child.allowsOutsideWorkspace('read', '/etc/passwd')).toBe(false);
    expect(child.evaluate('write', 'dist/a.js').action).toBe('deny');
    expect(child.evaluate('bash', 'git push').action).toBe('ask');
    expect(child.evaluate('bash', 'git status').action).toBe('allow'); // the engine's allow still holds
  });

  it('never answers more loosely than the engine rules and the defaults alone', () => {
    // An agent rule, even an ask, ranks above every default: it would lift a (custom) default deny.
    const layers = { defaults: [{ tool: 'bash', action: 'deny' }], agentRules: [{ tool: 'bash', action: 'ask' }] } as const;
    expect(new PermissionPolicy(layers).evaluate('bash', 'ls').action).toBe('ask');
    expect(new PermissionPolicy({ ...layers, narrowOnly: true }).evaluate('bash', 'ls').action).toBe('deny');
  });

  it('without narrowOnly, a definition keeps its power', () => {
    const child = engine.child(loosening);
    expect(child.evaluate('bash', 'make').action).toBe('allow');
    expect(child.allowsOutsideWorkspace('read', '/etc/passwd')).toBe(true);
  });
});
