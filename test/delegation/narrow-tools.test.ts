import { describe, expect, it } from 'vitest';
import { narrowTools, type NarrowToolsInput } from '../../src/subagent/narrow-tools.js';

const PARENT = ['read', 'write', 'edit', 'list', 'glob', 'grep', 'bash', 'todo', 'task', 'multitask', 'generate'];
const BASE = PARENT.slice(0, 8);

describe('narrowTools', () => {
  const table: { name: string; input: Omit<NarrowToolsInput, 'parentTools'>; expected: string[] }[] = [
    { name: 'no tools field: all the parent has, minus delegation at max depth', input: { canDelegate: false }, expected: BASE },
    { name: 'empty list: all', input: { tools: [], canDelegate: false }, expected: BASE },
    { name: '`*`: all', input: { tools: ['*'], canDelegate: false }, expected: BASE },
    { name: '`*` below max depth keeps delegation', input: { tools: ['*'], canDelegate: true }, expected: PARENT },
    { name: 'intersection, in the parent order', input: { tools: ['grep', 'read'], canDelegate: false }, expected: ['read', 'grep'] },
    { name: 'a tool the parent lacks is never granted', input: { tools: ['read', 'fly', 'webfetch'], canDelegate: false }, expected: ['read'] },
    { name: 'disallowed tools go', input: { disallowedTools: ['bash', 'write'], canDelegate: false }, expected: ['read', 'edit', 'list', 'glob', 'grep', 'todo'] },
    { name: 'disallowed beats listed', input: { tools: ['read', 'bash'], disallowedTools: ['bash'], canDelegate: false }, expected: ['read'] },
    { name: 'engine-disabled tools go', input: { tools: ['*'], disabledTools: ['edit'], canDelegate: true }, expected: PARENT.filter((t) => t !== 'edit') },
    { name: 'listing a delegation tool at max depth gives nothing', input: { tools: ['task', 'multitask', 'read'], canDelegate: false }, expected: ['read'] },
    { name: 'listing a delegation tool below max depth keeps it', input: { tools: ['task', 'read'], canDelegate: true }, expected: ['read', 'task'] },
    { name: 'disabled delegation tool stays off below max depth', input: { disabledTools: ['multitask'], canDelegate: true }, expected: PARENT.filter((t) => t !== 'multitask') },
  ];

  it.each(table)('$name', ({ input, expected }) => {
    expect(narrowTools({ parentTools: PARENT, ...input })).toEqual(expected);
  });

  it('never returns a tool the parent lacks, whatever the definition asks for', () => {
    const parentTools = ['read', 'grep'];
    for (const tools of [undefined, [], ['*'], ['write', 'task', 'read'], ['bash']]) {
      for (const canDelegate of [true, false]) {
        const child = narrowTools({ parentTools, tools, canDelegate });
        expect(child.every((t) => parentTools.includes(t))).toBe(true);
      }
    }
  });
});
