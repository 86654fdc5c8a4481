import { describe, expect, it } from 'vitest';
import { parsePermissionRules } from '../../src/permission/parse-permission-rules.js';
import { PERMISSION_RULE_SCHEMA } from '../../src/permission/permission-rule.js';

// Rules are checked against one schema; these pin the order of problems and the edges the
// hand-written checks had (whitespace tools, non-finite priorities) so the schema keeps them.

const problemOf = (rule: unknown): string => {
  try {
    parsePermissionRules([rule], 'test');
  } catch (error) {
    return (error as Error).message.replace('Invalid permission rule in test at index 0: ', '');
  }
  return 'accepted';
};

describe('permission rules checked against their schema', () => {
  it('reports an unknown key first, then the fields in order: tool, action, pattern, priority', () => {
    expect(problemOf({ tool: 5, action: 'no', patern: 'x' })).toBe('unknown key "patern" (allowed: tool, action, pattern, priority)');
    expect(problemOf({ tool: 5, action: 'no' })).toBe('"tool" must be a non-empty string (a tool name or "*"), got 5');
    expect(problemOf({ action: 'no', pattern: '' })).toBe('"tool" must be a non-empty string (a tool name or "*"), got undefined');
    expect(problemOf({ tool: 'bash', pattern: '' })).toBe('"action" must be one of allow, deny, ask, got undefined');
    expect(problemOf({ tool: 'bash', action: 'ask', pattern: '', priority: 'high' })).toBe('"pattern" must be a non-empty glob string, got ""');
  });

  it.each([
    [{ tool: '\t \n', action: 'deny' }, '"tool" must be a non-empty string (a tool name or "*"), got "\\t \\n"'],
    [{ tool: 'read', action: 'allow', priority: Number.NaN }, '"priority" must be a finite number, got NaN'],
    [{ tool: 'read', action: 'allow', priority: Number.NEGATIVE_INFINITY }, '"priority" must be a finite number, got -Infinity'],
    [[{ tool: 'read', action: 'allow' }], 'expected an object like {tool, action, pattern?, priority?}, got an array'],
    [null, 'expected an object like {tool, action, pattern?, priority?}, got null'],
  ])('refuses %j', (rule, message) => {
    expect(problemOf(rule)).toBe(message);
  });

  it('trims the tool and keeps only the given fields', () => {
    expect(parsePermissionRules([{ tool: ' bash ', action: 'ask', priority: -2 }], 'test')).toEqual([{ tool: 'bash', action: 'ask', priority: -2 }]);
  });

  it('is the JSON schema of a rule (what a config file could be checked against)', () => {
    expect(JSON.parse(JSON.stringify(PERMISSION_RULE_SCHEMA))).toMatchObject({
      type: 'object',
      required: ['tool', 'action'],
      properties: { action: { type: 'string', enum: ['allow', 'deny', 'ask'] } },
      additionalProperties: false,
    });
  });
});
