import { describe, expect, it } from 'vitest';
import { InvalidPermissionRuleError, parsePermissionRules } from '../../src/permission/index.js';

describe('parsePermissionRules', () => {
  it('accepts valid rules and returns clean copies', () => {
    const input = [{ tool: 'bash', action: 'deny', pattern: 'rm *', priority: 3 }, { tool: '*', action: 'ask' }];
    const rules = parsePermissionRules(input, 'engine options');
    expect(rules).toEqual(input);
    expect(rules[0]).not.toBe(input[0]);
    expect(Object.isFrozen(rules[0])).toBe(true);
  });

  it('treats undefined and null as no rules', () => {
    expect(parsePermissionRules(undefined, 'x')).toEqual([]);
    expect(parsePermissionRules(null, 'x')).toEqual([]);
  });

  it.each([
    ['not an array', { tool: 'bash', action: 'deny' }, 'Invalid permission rules in agents/a.md: expected an array of rules, got an object'],
    ['an item that is not an object', ['bash'], 'Invalid permission rule in agents/a.md at index 0: expected an object like {tool, action, pattern?, priority?}, got "bash"'],
    ['a missing tool', [{ action: 'deny' }], 'at index 0: "tool" must be a non-empty string (a tool name or "*"), got undefined'],
    ['an empty tool', [{ tool: ' ', action: 'deny' }], 'at index 0: "tool" must be a non-empty string'],
    ['an unknown action', [{ tool: 'bash', action: 'deny' }, { tool: 'bash', action: 'yes' }], 'at index 1: "action" must be one of allow, deny, ask, got "yes"'],
    ['a pattern that is not a string', [{ tool: 'read', action: 'allow', pattern: 5 }], 'at index 0: "pattern" must be a non-empty glob string, got 5'],
    ['a non-finite priority', [{ tool: 'read', action: 'allow', priority: Number.POSITIVE_INFINITY }], 'at index 0: "priority" must be a finite number, got Infinity'],
    ['a priority that is a string', [{ tool: 'read', action: 'allow', priority: '1' }], 'at index 0: "priority" must be a finite number, got "1"'],
    ['a misspelt key', [{ tool: 'bash', action: 'allow', patern: 'git *' }], 'at index 0: unknown key "patern" (allowed: tool, action, pattern, priority)'],
  ])('refuses %s with a message naming where, the index and the problem', (_, value, message) => {
    let caught: unknown;
    try {
      parsePermissionRules(value, 'agents/a.md');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(InvalidPermissionRuleError);
    expect((caught as Error).name).toBe('InvalidPermissionRuleError');
    expect((caught as Error).message).toContain('agents/a.md');
    expect((caught as Error).message).toContain(message);
  });

  it('exposes where and index on the error', () => {
    try {
      parsePermissionRules([{ tool: 'a', action: 'allow' }, {}], 'cli');
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ where: 'cli', index: 1 });
    }
  });
});
