import { describe, expect, it } from 'vitest';
import { evaluateRules, ruleMatches, type PermissionRule } from '../../src/permission/index.js';

describe('evaluateRules', () => {
  const table: { name: string; rules: PermissionRule[]; tool: string; subject?: string; expected: string | undefined }[] = [
    { name: 'no rule matches', rules: [{ tool: 'read', action: 'deny' }], tool: 'bash', subject: 'ls', expected: undefined },
    { name: 'empty rules', rules: [], tool: 'bash', expected: undefined },
    { name: 'tool without pattern', rules: [{ tool: 'bash', action: 'deny' }], tool: 'bash', subject: 'ls', expected: 'deny' },
    { name: 'wildcard tool', rules: [{ tool: '*', action: 'ask' }], tool: 'anything', expected: 'ask' },
    {
      name: 'higher priority wins over a stronger action',
      rules: [{ tool: 'bash', action: 'deny' }, { tool: 'bash', action: 'allow', pattern: 'git *', priority: 5 }],
      tool: 'bash',
      subject: 'git status',
      expected: 'allow',
    },
    {
      name: 'tie: deny beats ask beats allow, in any order',
      rules: [{ tool: 'bash', action: 'allow' }, { tool: '*', action: 'deny' }, { tool: 'bash', action: 'ask' }],
      tool: 'bash',
      expected: 'deny',
    },
    {
      name: 'tie: ask beats allow',
      rules: [{ tool: 'read', action: 'allow' }, { tool: 'read', action: 'ask', pattern: '**/.env' }],
      tool: 'read',
      subject: 'config/.env',
      expected: 'ask',
    },
    {
      name: 'priority defaults to 0, so a negative priority loses',
      rules: [{ tool: 'bash', action: 'deny', priority: -1 }, { tool: 'bash', action: 'allow' }],
      tool: 'bash',
      expected: 'allow',
    },
    {
      name: 'a pattern never matches a call without subject',
      rules: [{ tool: 'todo', action: 'deny', pattern: '*' }],
      tool: 'todo',
      expected: undefined,
    },
    {
      name: 'pattern that does not match',
      rules: [{ tool: 'bash', action: 'deny', pattern: 'rm *' }],
      tool: 'bash',
      subject: 'ls -la',
      expected: undefined,
    },
  ];

  it.each(table)('$name', ({ rules, tool, subject, expected }) => {
    expect(evaluateRules(rules, tool, subject)?.action).toBe(expected);
  });

  it('names the deciding rule in the reason', () => {
    const rule: PermissionRule = { tool: 'bash', action: 'deny', pattern: 'rm *' };
    expect(evaluateRules([{ tool: 'bash', action: 'allow' }, rule], 'bash', 'rm -rf x')).toEqual({
      action: 'deny',
      reason: 'denied by rule {tool: "bash", action: deny, pattern: "rm *"}',
      rule,
    });
    expect(evaluateRules([{ tool: 'bash', action: 'ask', priority: 2 }], 'bash', 'ls')?.reason).toBe(
      'approval required by rule {tool: "bash", action: ask, priority: 2}',
    );
  });

  it('picks the first of equal rules', () => {
    const first: PermissionRule = { tool: '*', action: 'allow' };
    expect(evaluateRules([first, { tool: 'read', action: 'allow' }], 'read', 'a')?.rule).toBe(first);
  });
});

describe('ruleMatches', () => {
  const matches = (pattern: string, tool: string, subject: string): boolean =>
    ruleMatches({ tool, action: 'allow', pattern }, tool, subject);

  it('lets * cross / and spaces in bash commands', () => {
    expect(matches('git *', 'bash', 'git log src/a.ts')).toBe(true);
    expect(matches('git *', 'bash', 'gitk --all')).toBe(false);
    expect(matches('npm run *', 'bash', 'npm run test -- --grep "a b"')).toBe(true);
  });

  it('does not let * cross a line break in commands', () => {
    expect(matches('git *', 'bash', 'git log\nrm -rf /')).toBe(false);
  });

  it('lets * cross / in urls, for any tool', () => {
    expect(matches('https://example.com/*', 'fetch', 'https://example.com/a/b?q=1')).toBe(true);
    expect(matches('https://example.com/*', 'fetch', 'https://evil.com/https://example.com/')).toBe(false);
  });

  it('matches paths as globs: * stays in one folder, ** crosses, dot files match', () => {
    expect(matches('src/*', 'read', 'src/a.ts')).toBe(true);
    expect(matches('src/*', 'read', 'src/deep/a.ts')).toBe(false);
    expect(matches('src/**', 'read', 'src/deep/a.ts')).toBe(true);
    expect(matches('**/.env', 'read', '.env')).toBe(true);
    expect(matches('**/.env', 'read', './config/.env')).toBe(true);
    expect(matches('/tmp/**', 'write', '/tmp/x/y.txt')).toBe(true);
  });
});
