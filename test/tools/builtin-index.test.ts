import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { createBuiltinTools, PUBLIC_TOOL_NAMES } from '../../src/tools/builtin/index.js';

const ajv = new Ajv({ allErrors: true, strict: true });

/** One valid and a few invalid argument objects per tool. */
const CASES: Record<string, { valid: object[]; invalid: object[] }> = {
  read: { valid: [{ path: 'a' }, { path: 'a', offset: 1, limit: 5 }], invalid: [{}, { path: 'a', offset: 0 }, { path: 'a', limit: 1.5 }, { path: 'a', extra: 1 }] },
  write: { valid: [{ path: 'a', content: '' }], invalid: [{ path: 'a' }, { path: '', content: 'x' }, { path: 'a', content: 1 }] },
  edit: {
    valid: [{ path: 'a', old_string: 'x', new_string: '', replace_all: true }],
    invalid: [{ path: 'a', old_string: '', new_string: 'y' }, { path: 'a', old_string: 'x' }, { path: 'a', old_string: 'x', new_string: 'y', replace_all: 'yes' }],
  },
  list: { valid: [{}, { path: 'src' }], invalid: [{ path: 3 }, { dir: 'src' }] },
  glob: { valid: [{ pattern: '*' }, { pattern: '*', path: 'src' }], invalid: [{}, { pattern: '*', cwd: '.' }] },
  grep: { valid: [{ pattern: 'x', path: '.', include: '*.ts' }], invalid: [{ path: '.' }, { pattern: 'x', flags: 'i' }] },
  bash: { valid: [{ command: 'ls', timeout_ms: 1000 }], invalid: [{ command: '' }, { command: 'ls', timeout_ms: 0 }, { command: 'ls', timeout_ms: 10_000_000 }, { command: 'ls', timeout: 5 }] },
  todo: {
    valid: [{ todos: [] }, { todos: [{ id: '1', content: 'x', status: 'in_progress' }] }],
    invalid: [{}, { todos: [{ id: '1', content: 'x', status: 'done' }] }, { todos: [{ id: '1', content: 'x' }] }, { todos: [{ id: '1', content: 'x', status: 'pending', extra: 1 }] }],
  },
};

describe('createBuiltinTools', () => {
  it('returns the eight public tools in order, as fresh instances', () => {
    const first = createBuiltinTools();
    expect(first.map((tool) => tool.name)).toEqual([...PUBLIC_TOOL_NAMES]);
    expect(createBuiltinTools()[0]).not.toBe(first[0]);
  });

  it.each(Object.entries(CASES))('%s has a precise, strict JSON schema', (name, { valid, invalid }) => {
    const tool = createBuiltinTools().find((candidate) => candidate.name === name);
    expect(tool?.parameters).toMatchObject({ type: 'object', additionalProperties: false });
    const validate = ajv.compile(tool!.parameters);
    for (const args of valid) expect(validate(args), JSON.stringify(args)).toBe(true);
    for (const args of invalid) expect(validate(args), JSON.stringify(args)).toBe(false);
    expect(tool!.description.length).toBeGreaterThan(20);
  });

  it('gives every path tool paths() and subject()', () => {
    const byName = new Map(createBuiltinTools().map((tool) => [tool.name, tool]));
    for (const name of ['read', 'write', 'edit', 'list', 'glob', 'grep']) {
      expect(byName.get(name)?.paths, name).toBeTypeOf('function');
      expect(byName.get(name)?.subject, name).toBeTypeOf('function');
    }
    expect(byName.get('grep')?.paths?.({ pattern: 'x' })).toEqual(['.']);
    expect(byName.get('write')?.paths?.({ path: 'a', content: '' })).toEqual(['a']);
  });
});
