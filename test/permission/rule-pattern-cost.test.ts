/**
 * Path patterns run as picomatch's backtracking regexes, on the main thread, against paths
 * the model writes; a workspace definition (untrusted) may add deny and ask rules. A costly
 * pattern is refused where rules are read, and a subject longer than any path is judged on
 * the safe side without running a regex over it.
 */
import { describe, expect, it } from 'vitest';
import { parsePermissionRules } from '../../src/permission/parse-permission-rules.js';
import { PermissionPolicy } from '../../src/permission/permission-policy.js';
import { defineAgent } from '../../src/subagent/define-agent.js';

describe('costly rule patterns', () => {
  it('are refused in an engine\'s rules, with what to write instead', () => {
    expect(() => parsePermissionRules([{ tool: 'read', action: 'deny', pattern: '*a*b*c*' }], 'permissionRules')).toThrow(
      /permissionRules.*pattern "\*a\*b\*c\*" has too many wildcards.*fewer wildcards/,
    );
    expect(() => parsePermissionRules([{ tool: '*', action: 'ask', pattern: '**/(a+)+x' }], 'permissionRules')).toThrow(/opens no @\(\.\.\.\)/);
    // a bash rule is free text read in linear time: as many * as it likes
    expect(parsePermissionRules([{ tool: 'bash', action: 'deny', pattern: '*a *b *c *d *' }], 'permissionRules')).toHaveLength(1);
    expect(parsePermissionRules([{ tool: 'read', action: 'deny', pattern: '**/*.{pem,key}' }], 'permissionRules')).toHaveLength(1);
  });

  it('refuses in a bash rule the syntax only picomatch reads, whose * would not cross a .. segment', () => {
    for (const pattern of ['!git *', 'rm @(-rf|-fr) *', 'rm !(keep)', '[[:alpha:]]*']) {
      expect(() => parsePermissionRules([{ tool: 'bash', action: 'deny', pattern }], 'permissionRules'), pattern).toThrow(/uses syntax bash patterns do not take/);
    }
    // the same pattern as a path pattern of another tool is picomatch's to read
    expect(parsePermissionRules([{ tool: 'read', action: 'deny', pattern: '@(secrets|keys)/**' }], 'permissionRules')).toHaveLength(1);
  });

  it('make a definition fail to load, naming the rule', () => {
    const define = () =>
      defineAgent({ name: 'careful', description: 'd', systemPrompt: 'p', permissionRules: [{ tool: 'write', action: 'deny', pattern: '*a*a*a*b' }] });
    expect(define).toThrow(/permissionRules"?\[0\] pattern "\*a\*a\*a\*b" has too many wildcards/);
  });
});

describe('a subject longer than any path', () => {
  it('is judged at once: a deny whose pattern, read as free text, matches holds; one that does not, does not', () => {
    const policy = new PermissionPolicy({ rules: [{ tool: '*', action: 'deny', pattern: '*a*b' }] });
    const long = 'a'.repeat(1_000_000); // the path regex backtracked for minutes over it
    expect(policy.evaluate('read', long).action).toBe('allow');
    expect(policy.evaluate('read', `${long}/b`).action).toBe('deny');
    expect(policy.evaluate('read', 'xa/b').action).toBe('allow'); // a short path keeps the path reading: * stays in its folder
  });

  it('is never allowed by an allow rule with a pattern: it asks as it would without it', () => {
    const policy = new PermissionPolicy({ rules: [{ tool: 'mcp__db__query', action: 'ask' }, { tool: 'mcp__db__query', action: 'allow', pattern: 'SELECT*', priority: 1 }] });
    expect(policy.evaluate('mcp__db__query', 'SELECT 1').action).toBe('allow');
    expect(policy.evaluate('mcp__db__query', `SELECT ${'x'.repeat(5000)}`).action).toBe('ask');
  });

  it('is matched by **/ as by a path pattern: no folder at all counts', () => {
    const policy = new PermissionPolicy({ rules: [{ tool: 'read', action: 'deny', pattern: '**/*.pem' }] });
    expect(policy.evaluate('read', `${'k'.repeat(5000)}.pem`).action).toBe('deny');
  });
});
