import { describe, expect, it } from 'vitest';
import { DefinitionError, parseAgentMarkdown } from '../../src/subagent/index.js';
import { definitionRefusal } from './definition-refusal.js';

// YAML a cloned repository can put in a definition's front matter: tags that would build
// objects (or code), nesting that would exhaust the stack, merge keys that would smuggle
// values. Each is refused, or read as plain data, with the file named: never a crash.

const FILE = '/w/.rxharness/agents/hostile.md';
const parse = (front: string) =>
  parseAgentMarkdown(`---\nname: hostile\ndescription: d\n${front}\n---\nbody\n`, { source: 'workspace', file: FILE });

const refusal = (front: string): DefinitionError => definitionRefusal(() => parse(front));

describe('YAML tags in front matter (the loader knows only the core schema)', () => {
  it.each([
    ['code', 'x-run: !!js/function "function () { return process.exit(1) }"'],
    ['a regular expression', 'x-match: !!js/regexp /(a+)+$/'],
    ['undefined', 'x-gone: !!js/undefined ~'],
    ['binary data', 'x-blob: !!binary aGVsbG8='],
    ['a date object', 'x-when: !!timestamp 2001-12-14'],
    ['a set', 'x-set: !!set {a, b}'],
    ['an ordered map', 'x-map: !!omap [{a: 1}]'],
    ['a local tag', 'x-thing: !thing {a: 1}'],
    ['a tag in the tools list', 'tools: [read, !!js/function "f"]'],
  ])('refuses a tag building %s, naming the file and the line', (_, front) => {
    const error = refusal(front);
    expect(error.file).toBe(FILE);
    expect(error.line).toBe(4);
    expect(error.message).toMatch(new RegExp(`^${FILE}: invalid YAML in front matter at line 4, column \\d+: .*tag`));
  });

  it('reads a date, a number-like and a null-like value as the core schema says: no Date object', () => {
    const definition = parse('x-when: 2001-12-14\nx-octal: 0o17\nx-null: ~');
    expect(definition.extra).toEqual({ 'x-when': '2001-12-14', 'x-octal': 15, 'x-null': null });
  });
});

describe('nesting and merge keys', () => {
  it.each([
    ['flow lists', `x-deep: ${'['.repeat(100_000)}${']'.repeat(100_000)}`],
    ['flow mappings', `x-deep: ${'{a: '.repeat(20_000)}1${'}'.repeat(20_000)}`],
    ['block mappings', Array.from({ length: 2_000 }, (_, i) => `${' '.repeat(i)}a:`).join('\n')],
  ])('refuses %s nested thousands deep with the file and a line, not a stack overflow', (_, front) => {
    const error = refusal(front);
    expect(error.file).toBe(FILE);
    expect(error.message).toMatch(new RegExp(`^${FILE}: invalid YAML in front matter at line \\d+`));
  });

  it('does not merge "<<" into the front matter: a value hidden in an anchor stays there, unread', () => {
    const definition = parse('x-base: &base {maxSteps: -5, tools: "**"}\n<<: *base');
    expect(definition.maxSteps).toBeUndefined();
    expect(definition.tools).toBeUndefined();
    expect(Object.keys(definition.extra)).toEqual(['x-base', '<<']);
  });
});
