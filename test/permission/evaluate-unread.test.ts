import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PermissionPolicy, type PermissionRule } from '../../src/permission/index.js';

// When checking a call throws, `evaluate` still decides it: a bash line as one the checker
// cannot read (the bash deny rules' guard holds, an allow by a pattern asks), any other call
// denied; the reason says the checker could not read it. The call neither runs unchecked nor
// fails with the checker's error.

const denyRm: PermissionRule[] = [{ tool: 'bash', action: 'allow', pattern: '*' }, { tool: 'bash', action: 'deny', pattern: 'rm *' }];

/**
 * A subject that is no string, as an untyped caller (a tool's arguments parsed from JSON) may
 * hand over: reading it throws inside the bash reader (`text.replaceAll is not a function`).
 */
const NOT_TEXT = 42 as unknown as string;

describe('a call whose checking throws', () => {
  it('a bash line is denied while a bash deny rule is in force, saying it could not be read', () => {
    const decision = new PermissionPolicy({ rules: denyRm }).evaluate('bash', NOT_TEXT);
    expect(decision.action).toBe('deny');
    expect(decision.reason).toMatch(/could not read .*so the bash deny rules cannot check it/);
  });

  it('an allow by a pattern asks instead, as on any line the checker cannot read', () => {
    const decision = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow', pattern: '*' }] }).evaluate('bash', NOT_TEXT);
    expect(decision.action).toBe('ask');
    expect(decision.reason).toMatch(/could not read/);
  });

  it("a parent's deny of the whole tool still holds", () => {
    const parent = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'deny' }] });
    expect(parent.child([{ tool: 'bash', action: 'allow' }]).evaluate('bash', NOT_TEXT).action).toBe('deny');
  });

  it('another tool is denied, saying the checker could not read the call', () => {
    const decision = new PermissionPolicy({ rules: [{ tool: 'write', action: 'allow', pattern: 'src/**' }] }).evaluate('write', NOT_TEXT);
    expect(decision).toEqual({ action: 'deny', reason: expect.stringMatching(/^denied: the write call could not be read by the permission checker/) });
  });
});

describe('random lines', () => {
  const policy = new PermissionPolicy({ rules: [...denyRm, { tool: 'write', action: 'deny', pattern: 'src/**' }] });
  const piece = fc.constantFrom(
    'rm', 'x', ' ', '\n', ';', '|', '&', '&&', '$(', ')', '`', '"', "'", '\\', '{', '}', '(', '[', ']', '=', '~', '$', '{}', '<<', '>', '*',
    'xargs', 'parallel', 'eval', 'sh -c', 'cd', 'for', 'do', 'done', 'f()', 'a=(', ':::', 'jobs -x', 'HOME', 'coproc', '[[', '((', '))',
  );

  it('evaluate returns a decision for any line, never throwing (property)', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        expect(['allow', 'ask', 'deny']).toContain(policy.evaluate('bash', pieces.join('')).action);
      }),
      { numRuns: 400 },
    );
  });
});
