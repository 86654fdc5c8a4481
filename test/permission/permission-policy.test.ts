import { describe, expect, it } from 'vitest';
import { DEFAULT_RULES, PermissionPolicy, type PermissionRule } from '../../src/permission/index.js';

describe('PermissionPolicy defaults', () => {
  const policy = new PermissionPolicy();

  it('allows reads, listings, searches, writes and plans', () => {
    for (const tool of ['read', 'list', 'glob', 'grep', 'write', 'edit', 'todo']) {
      expect(policy.evaluate(tool, 'src/a.ts'), tool).toMatchObject({ action: 'allow', reason: `${tool} is allowed by default` });
    }
  });

  it('asks for bash', () => {
    expect(policy.evaluate('bash', 'ls')).toMatchObject({ action: 'ask', reason: 'bash asks for approval by default' });
  });

  it('asks for .env and .env.* files at any depth', () => {
    for (const path of ['.env', 'config/.env', 'a/b/.env.local', './.env.production']) {
      expect(policy.evaluate('read', path).action, path).toBe('ask');
      expect(policy.evaluate('write', path).action, path).toBe('ask');
      expect(policy.evaluate('grep', path).action, path).toBe('ask');
    }
    expect(policy.evaluate('edit', 'deep/.env').reason).toBe('edit asks for approval by default for "deep/.env"');
    expect(policy.evaluate('read', '.envrc').action).toBe('ask'); // see default-env-rules.test.ts
    expect(policy.evaluate('read', 'env/a.ts').action).toBe('allow');
  });

  it('asks before writing or editing agent definitions and sessions under .rxharness/', () => {
    for (const tool of ['write', 'edit']) {
      expect(policy.evaluate(tool, '.rxharness/agents/loose.md').action, tool).toBe('ask');
      expect(policy.evaluate(tool, '.rxharness-notes.md').action, tool).toBe('allow');
    }
    expect(policy.evaluate('read', '.rxharness/agents/loose.md').action).toBe('allow');
  });

  it('allows what no rule mentions', () => {
    expect(policy.evaluate('task', 'explore')).toEqual({ action: 'allow', reason: 'no rule matches task; allowed' });
  });

  it('uses the defaults it is given', () => {
    const strict = new PermissionPolicy({ defaults: [{ tool: '*', action: 'deny' }] });
    expect(strict.evaluate('read', 'a').action).toBe('deny');
    expect(strict.defaults).not.toBe(DEFAULT_RULES);
  });
});

describe('PermissionPolicy layers', () => {
  it('ranks every user rule above the defaults, whatever its priority', () => {
    const policy = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow', priority: -5 }, { tool: 'read', action: 'allow' }] });
    expect(policy.evaluate('bash', 'rm -rf x')).toMatchObject({ action: 'allow', reason: 'allowed by rule {tool: "bash", action: allow, priority: -5}' });
    expect(policy.evaluate('read', '.env').action).toBe('allow');
    expect(policy.evaluate('write', '.env').action).toBe('ask');
  });

  it('lets engine and agent rules compete by priority, deny winning ties', () => {
    const engineDeny: PermissionRule = { tool: 'bash', action: 'deny' };
    expect(new PermissionPolicy({ rules: [engineDeny], agentRules: [{ tool: 'bash', action: 'allow', priority: 1 }] }).evaluate('bash', 'ls').action).toBe('allow');
    expect(new PermissionPolicy({ rules: [{ ...engineDeny, priority: 1 }], agentRules: [{ tool: 'bash', action: 'allow' }] }).evaluate('bash', 'ls').action).toBe('deny');
    expect(new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow' }], agentRules: [engineDeny] }).evaluate('bash', 'ls').action).toBe('deny');
  });

  it('gives a child the same engine rules and its own agent rules', () => {
    const engine = new PermissionPolicy({ rules: [{ tool: 'write', action: 'deny', pattern: 'dist/**' }] });
    const child = engine.child([{ tool: 'bash', action: 'allow', pattern: 'git *' }]);
    expect(child.rules).toEqual(engine.rules);
    expect(child.parent).toBe(engine);
    expect(child.evaluate('write', 'dist/a.js').action).toBe('deny');
    expect(child.evaluate('bash', 'git log').action).toBe('allow');
    expect(engine.evaluate('bash', 'git log').action).toBe('ask');
  });

  it('keeps every deny of the parent, even against a stronger child rule', () => {
    const parent = new PermissionPolicy({ agentRules: [{ tool: 'bash', action: 'deny', pattern: 'rm *' }] });
    const child = parent.child([{ tool: 'bash', action: 'allow', priority: 100 }]);
    const decision = child.evaluate('bash', 'rm -rf build');
    expect(decision.action).toBe('deny');
    expect(decision.reason).toBe('denied by the parent agent: denied by rule {tool: "bash", action: deny, pattern: "rm *"}');
    expect(decision.rule).toEqual({ tool: 'bash', action: 'deny', pattern: 'rm *' });
    expect(child.evaluate('bash', 'ls').action).toBe('allow');
  });

  it('keeps denies down several generations', () => {
    const root = new PermissionPolicy({ agentRules: [{ tool: 'write', action: 'deny' }] });
    const grandchild = root.child([]).child([{ tool: 'write', action: 'allow', priority: 9 }]);
    expect(grandchild.evaluate('write', 'a.ts').action).toBe('deny');
  });

  it('does not inherit the parent asks or allows', () => {
    const parent = new PermissionPolicy({ agentRules: [{ tool: 'write', action: 'ask' }, { tool: 'bash', action: 'allow' }] });
    const child = parent.child([{ tool: 'write', action: 'allow' }]);
    expect(child.evaluate('write', 'a.ts').action).toBe('allow');
    expect(child.evaluate('bash', 'ls').action).toBe('ask');
  });
});

describe('PermissionPolicy.allowsOutsideWorkspace', () => {
  const shared: PermissionRule = { tool: 'read', action: 'allow', pattern: '/srv/shared/**' };

  it('is false without rules', () => {
    expect(new PermissionPolicy().allowsOutsideWorkspace('read', '/etc/passwd')).toBe(false);
  });

  it('is true for an explicit allow with a matching pattern, for that tool only', () => {
    const policy = new PermissionPolicy({ rules: [shared] });
    expect(policy.allowsOutsideWorkspace('read', '/srv/shared/a/b.txt')).toBe(true);
    expect(policy.allowsOutsideWorkspace('read', '/srv/other.txt')).toBe(false);
    expect(policy.allowsOutsideWorkspace('write', '/srv/shared/a.txt')).toBe(false);
  });

  it('accepts a * tool rule and agent rules', () => {
    const policy = new PermissionPolicy({ agentRules: [{ tool: '*', action: 'allow', pattern: '/data/**' }] });
    expect(policy.allowsOutsideWorkspace('grep', '/data/x')).toBe(true);
  });

  it('is not widened by an allow without a pattern', () => {
    expect(new PermissionPolicy({ rules: [{ tool: 'read', action: 'allow' }] }).allowsOutsideWorkspace('read', '/etc/passwd')).toBe(false);
  });

  it('is never widened by ask rules', () => {
    const policy = new PermissionPolicy({ rules: [{ tool: 'read', action: 'ask', pattern: '/etc/**', priority: 5 }] });
    expect(policy.allowsOutsideWorkspace('read', '/etc/passwd')).toBe(false);
  });

  it('is never widened by default rules', () => {
    const policy = new PermissionPolicy({ defaults: [{ tool: 'read', action: 'allow', pattern: '/**' }] });
    expect(policy.allowsOutsideWorkspace('read', '/etc/passwd')).toBe(false);
  });

  it('is blocked by any matching deny, even of lower priority', () => {
    const policy = new PermissionPolicy({
      rules: [{ ...shared, priority: 10 }, { tool: 'read', action: 'deny', pattern: '/srv/shared/secret/**' }],
    });
    expect(policy.allowsOutsideWorkspace('read', '/srv/shared/secret/key')).toBe(false);
    expect(policy.allowsOutsideWorkspace('read', '/srv/shared/public.txt')).toBe(true);
  });

  it('is blocked by a deny of the parent, and does not inherit the parent agent allow', () => {
    const parent = new PermissionPolicy({ agentRules: [{ tool: 'read', action: 'deny', pattern: '/srv/**' }] });
    expect(parent.child([shared]).allowsOutsideWorkspace('read', '/srv/shared/a')).toBe(false);
    const allowing = new PermissionPolicy({ agentRules: [shared] });
    expect(allowing.child([]).allowsOutsideWorkspace('read', '/srv/shared/a')).toBe(false);
    expect(new PermissionPolicy({ rules: [shared] }).child([]).allowsOutsideWorkspace('read', '/srv/shared/a')).toBe(true);
  });
});
