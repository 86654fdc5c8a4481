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
