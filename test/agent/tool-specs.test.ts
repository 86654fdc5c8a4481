/**
 * The tool specs a run offers are built once and shared (issue 28.1, memory per live run):
 * every step of a run sends the same `tools` array while its tools stay the same, and a
 * different one as soon as a description or schema changed or the run has other tools. A
 * stale spec (an old description, a tool the run does not have) would be a bug, so each
 * sharing is attacked with a change it must notice.
 */
import { describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import { sharedToolSpec, toolSpecsReader } from '../../src/agent/tool-specs.js';
import type { ChatRequest } from '../../src/model/chat-model.js';
import { chatRequestBody } from '../../src/model/chat-request-body.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import type { Tool } from '../../src/tools/tool.js';
import { collect } from '../support/collect-events.js';

const schema = { type: 'object', properties: { q: { type: 'string' } } } as const;

function tool(name: string, description = `The ${name} tool.`, parameters: Tool['parameters'] = schema): Tool {
  return { name, description, parameters, execute: () => `${name} done` };
}

/** A model that calls `noop` `calls` times, then answers. */
function callingModel(calls: number): ScriptedModel {
  return new ScriptedModel((_request, { index }) => (index < calls ? { toolCalls: [{ name: 'noop', args: {} }] } : { text: 'done' }));
}

const namesOf = (request: ChatRequest): string[] => (request.tools ?? []).map((t) => t.name);

describe('tool specs: built once, reused while nothing changed', () => {
  it('every step of a run offers the very same spec array, and the wire `tools` of its requests are one array', async () => {
    const model = callingModel(3);
    await collect(new ReActAgent({ model, tools: [tool('noop'), tool('other')] }).stream('go'));
    const [first, ...rest] = model.requests;
    expect(rest).toHaveLength(3);
    for (const later of rest) expect(later.tools).toBe(first!.tools);
    const bodies = model.requests.map((r) => chatRequestBody('m', r, {}));
    for (const body of bodies) expect(body.tools).toBe(bodies[0]!.tools);
    // The bytes sent are those of a spec built by hand: nothing cached changes the prompt.
    expect(JSON.stringify(bodies[0]!.tools)).toBe(
      JSON.stringify(['noop', 'other'].map((n) => ({ type: 'function', function: { name: n, description: `The ${n} tool.`, parameters: schema } }))),
    );
  });

  it('a description that changes between steps (an agent `generate` made, listed by `task`) is offered at the next step', async () => {
    let agents = 'alpha';
    const listing: Tool = { ...tool('listing'), get description() { return `Delegates to: ${agents}.`; } };
    const model = new ScriptedModel((_request, { index }) => {
      if (index === 1) agents = 'alpha, beta';
      return index < 3 ? { toolCalls: [{ name: 'noop', args: {} }] } : { text: 'done' };
    });
    await collect(new ReActAgent({ model, tools: [tool('noop'), listing] }).stream('go'));
    const described = model.requests.map((r) => r.tools![1]!.description);
    expect(described).toEqual(['Delegates to: alpha.', 'Delegates to: alpha.', 'Delegates to: alpha, beta.', 'Delegates to: alpha, beta.']);
    expect(model.requests[2]!.tools).not.toBe(model.requests[1]!.tools);
    expect(model.requests[3]!.tools).toBe(model.requests[2]!.tools);
    const bodies = model.requests.map((r) => chatRequestBody('m', r, {}));
    expect(JSON.stringify(bodies[2]!.tools)).toContain('alpha, beta');
    expect(JSON.stringify(bodies[1]!.tools)).not.toContain('beta');
  });

  it('a schema replaced between steps (the agents `task` may name) is offered at the next step', () => {
    let parameters: Tool['parameters'] = { type: 'object', properties: { agent: { enum: ['alpha'] } } };
    const task: Tool = { ...tool('task'), get modelParameters() { return parameters; } };
    const read = toolSpecsReader([task]);
    const before = read();
    expect(read()).toBe(before);
    parameters = { type: 'object', properties: { agent: { enum: ['alpha', 'beta'] } } };
    const after = read();
    expect(after).not.toBe(before);
    expect(after[0]!.parameters).toBe(parameters);
    expect(before[0]!.parameters).not.toBe(parameters);
  });

  it('runs with other tools (a child\'s narrowed set, MCP tools that arrived, an AG-UI run\'s frontend tools) each get their own list, never another run\'s', async () => {
    const sets: Tool[][] = [
      [tool('noop'), tool('read'), tool('write')], // the parent's
      [tool('noop'), tool('read')], // a child's, narrowed
      [tool('noop'), tool('read'), tool('mcp__docs__search')], // MCP tools arrived
      [tool('noop'), tool('read'), tool('confirm', 'Asks the user in the browser.')], // a frontend tool
      [tool('noop'), tool('read', 'Reads a file, differently described.')], // same name and schema, new text
    ];
    const requests: ChatRequest[] = [];
    for (let i = 0; i < sets.length; i++) {
      const scripted = callingModel(1);
      const perRun = new ReActAgent({ model: scripted, tools: sets[i]! });
      await collect(perRun.stream('go'));
      expect(scripted.requests[1]!.tools, `run ${i}: its two steps share one list`).toBe(scripted.requests[0]!.tools);
      requests.push(scripted.requests[0]!);
    }
    expect(requests.map(namesOf)).toEqual(sets.map((s) => s.map((t) => t.name)));
    expect(requests[4]!.tools![1]!.description).toBe('Reads a file, differently described.');
    expect(requests[1]!.tools![1]!.description).toBe('The read tool.');
    for (let i = 1; i < requests.length; i++) expect(requests[i]!.tools).not.toBe(requests[i - 1]!.tools);
    // Equal tools of different runs share their spec objects (one per name, text and schema).
    expect(requests[1]!.tools![0]).toBe(requests[0]!.tools![0]);
    expect(requests[4]!.tools![1]).not.toBe(requests[0]!.tools![1]);
  });

  it('a long-lived schema offered under 10,000 descriptions (a frontend tool per client) does not keep a spec for each: the sharing starts again', () => {
    const lasting = { type: 'object', properties: {} } as const;
    const first = sharedToolSpec('probe', 'the first text', lasting);
    expect(sharedToolSpec('probe', 'the first text', lasting)).toBe(first); // shared while few
    for (let i = 0; i < 10_000; i++) sharedToolSpec('probe', `text ${i}`, lasting);
    const again = sharedToolSpec('probe', 'the first text', lasting);
    expect(again).toEqual(first);
    expect(again).not.toBe(first); // the old spec was let go with the others
  });

  it('the spec last given for a name is not given for another description, nor for another name on the same schema', () => {
    const shared = { type: 'object', properties: { x: { type: 'string' } } } as const;
    const a = sharedToolSpec('lookup', 'text A', shared);
    const b = sharedToolSpec('lookup', 'text B', shared);
    const other = sharedToolSpec('fetch', 'text A', shared);
    expect([a.description, b.description, other.name]).toEqual(['text A', 'text B', 'fetch']);
    expect(sharedToolSpec('lookup', 'text A', shared)).toBe(a); // back to A: A's spec, still shared
    expect(sharedToolSpec('lookup', 'text B', shared)).toBe(b);
    expect(sharedToolSpec('lookup', ['text', 'A'].join(' '), shared)).toBe(a); // an equal text built anew
  });

  it('a tool list that lost a tool is offered without it (the list read before was longer)', () => {
    const tools = [tool('first'), tool('second')];
    const read = toolSpecsReader(tools);
    expect(read().map((t) => t.name)).toEqual(['first', 'second']);
    tools.pop();
    expect(read().map((t) => t.name)).toEqual(['first']);
  });
});
