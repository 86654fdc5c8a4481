import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkToolArguments } from '../../src/tools/args-check.js';
import { createTodoTool } from '../../src/tools/builtin/todo.js';
import { defineTool } from '../../src/tools/define-tool.js';

// 50,000 wrong items are 100 KB of a model's output; listing every problem made a 1.5 MB
// (ajv) or 3 MB (zod) message, which the model would read back in every later request.

const flood = { todos: Array.from({ length: 50_000 }, () => 1) };

describe('a call with thousands of problems', () => {
  it('a JSON-schema tool lists the first ten and counts the rest', () => {
    const { problems } = checkToolArguments(createTodoTool(), flood);
    const first = Array.from({ length: 10 }, (_, i) => `"todos.${i}" must be object`).join('; ');
    expect(problems).toBe(`${first}; and 49990 more problems`);
  });

  it('a zod tool the same way, counting its distinct problems', () => {
    const tool = defineTool({ name: 'z', description: 'd', input: z.object({ todos: z.array(z.object({ id: z.string() })) }), execute: () => 'ok' });
    const { problems } = checkToolArguments(tool, flood);
    expect(problems).toMatch(/^"todos\.0" invalid input: expected object, received number; .*"todos\.9" [^;]+; and 49990 more problems$/);
  });

  it('ten problems or fewer are listed as they are', () => {
    const { problems } = checkToolArguments(createTodoTool(), { todos: [1, 2] });
    expect(problems).toBe('"todos.0" must be object; "todos.1" must be object');
  });
});

// A key is the model's own text: a megabyte key quoted whole doubled what the model sent in
// the message it reads back in every later request.
describe('a call whose keys are a megabyte long', () => {
  const key = 'k'.repeat(1_000_000);

  it('a JSON-schema tool quotes the unknown key cut, saying how much was cut', () => {
    const { problems } = checkToolArguments(createTodoTool(), { todos: [], [key]: 1 });
    expect(problems).toContain(`has an unknown property "${'k'.repeat(39)} [... 999922 characters cut ...] ${'k'.repeat(39)}"`);
    expect(problems!.length).toBeLessThan(400);
  });

  it('a zod tool quotes the unknown key and the path cut', () => {
    const tool = defineTool({ name: 'z', description: 'd', input: z.strictObject({ a: z.record(z.string(), z.string()) }), execute: () => 'ok' });
    const { problems } = checkToolArguments(tool, { a: { [key]: 3 }, [key]: 1 });
    expect(problems).toContain(`[... 999922 characters cut ...]`);
    expect(problems!.length).toBeLessThan(800);
  });
});
