import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import type { AgentEvent, ToolCallEndEvent } from '../../src/events/agent-event.js';
import type { JsonObject } from '../../src/events/json.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { defineTool } from '../../src/tools/define-tool.js';
import type { Tool } from '../../src/tools/tool.js';
import { outcomeOf } from '../support/collect.js';

// A tool schema's `$ref` that loops in place compiled, and ajv then overflowed the stack
// (some 300 ms) checking every call. A `defineTool` schema with one is refused when the tool
// is defined; a hand-written tool's when the agent holding it is made, in the same words. A `$ref` to a
// URL ajv refuses when compiling (fetching nothing), as before; local `$ref`s, a tree
// recurring through its items, and TypeBox's refs by `$id` (`Type.Cyclic`) work as before.

const LOOPS: ReadonlyArray<readonly [string, JsonObject, RegExp]> = [
  ['a schema that is its own $ref', { type: 'object', properties: { x: { type: 'string' } }, $ref: '#' }, /its \$ref "#" comes back to itself without going into a property or an item/],
  ['a property that is its own $ref', { type: 'object', properties: { x: { $ref: '#/properties/x' } } }, /its \$ref "#\/properties\/x" comes back to itself/],
  [
    'two $defs naming each other through allOf and anyOf',
    { type: 'object', $defs: { a: { allOf: [{ $ref: '#/$defs/b' }] }, b: { anyOf: [{ type: 'string' }, { $ref: '#/$defs/a' }] } }, properties: { x: { $ref: '#/$defs/a' } } },
    /its \$ref "#\/\$defs\/[ab]" comes back to itself/,
  ],
];

/** A `$ref` to a URL: ajv cannot resolve it (it fetches nothing) and says so. */
const REMOTE: JsonObject = { type: 'object', properties: { x: { $ref: 'http://127.0.0.1:9/schema.json' } } };
const UNRESOLVED = /can't resolve reference http:\/\/127\.0\.0\.1:9\/schema\.json/;

/** A tree as TypeBox's `Type.Cyclic` writes it (definitions named by `$id`, refs by name), as a tool's argument. */
const CYCLIC = Type.Object({ root: Type.Cyclic({ Node: Type.Object({ id: Type.String(), nodes: Type.Array(Type.Ref('Node')) }) }, 'Node') });

/** A plan of steps of steps, each titled: local `$ref`s that recur through an item, which ends with the value. */
const TREE: JsonObject = {
  type: 'object',
  $defs: { title: { type: 'string', minLength: 1 }, step: { type: 'object', properties: { title: { $ref: '#/$defs/title' }, steps: { type: 'array', items: { $ref: '#/$defs/step' } } }, required: ['title'] } },
  properties: { title: { $ref: '#/$defs/title' }, steps: { type: 'array', items: { $ref: '#/$defs/step' } } },
  required: ['title'],
};

/** Runs an agent holding `tools` whose model calls `name` with each of `calls`, then answers; the calls' ends. */
async function callEach(name: string, calls: readonly JsonObject[], tools: Tool[]): Promise<{ events: AgentEvent[]; ends: ToolCallEndEvent[] }> {
  const model = new ScriptedModel([{ toolCalls: calls.map((args, i) => ({ id: `c${i}`, name, args })) }, { text: 'went on' }]);
  const { values: events, completed } = await outcomeOf(new ReActAgent({ model, tools }).stream('go'));
  expect(completed).toBe(true);
  expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'went on' });
  return { events, ends: events.filter((e): e is ToolCallEndEvent => e.type === 'ToolCallEnd') };
}

describe('defineTool: a JSON schema whose $ref no call could be checked against', () => {
  it.each(LOOPS)('refuses %s when the tool is defined, naming the tool and the $ref', (_name, input, why) => {
    const define = () => defineTool({ name: 'odd', description: 'd', input, execute: () => 'ran' });
    expect(define).toThrow(TypeError);
    expect(define).toThrow(/^defineTool\("odd"\): `input` cannot be checked against: /);
    expect(define).toThrow(why);
    expect(define).toThrow(/Let a schema recur only through a property or an item/);
  });

  it('refuses a $ref to a URL with ajv\'s words, as before: nothing is fetched', () => {
    const define = () => defineTool({ name: 'odd', description: 'd', input: REMOTE, execute: () => 'ran' });
    expect(define).toThrow(/^defineTool\("odd"\): `input` is not a valid JSON schema: /);
    expect(define).toThrow(UNRESOLVED);
  });

  it('takes TypeBox\'s refs by $id (Type.Cyclic): calls are checked against the tree', async () => {
    const tree = defineTool({ name: 'tree', description: 'd', input: CYCLIC, execute: ({ root }) => `root ${root.id}` });
    const { ends } = await callEach('tree', [{ root: { id: 'a', nodes: [{ id: 'b', nodes: [] }] } }, { root: { id: 'a', nodes: [{ id: 3, nodes: [] }] } }], [tree]);
    expect(ends[0]).toMatchObject({ text: 'root a' });
    expect(ends[1]!.error).toMatch(/"root\.nodes\.0\.id" must be string/);
  });

  it('takes local $refs that recur through an item: good plans run, a bad one is refused with its path', async () => {
    let ran = 0;
    const plan = defineTool({ name: 'plan', description: 'd', input: TREE, execute: (args) => (ran++, `planned ${String(args['title'])}`) });
    const good = { title: 'trip', steps: [{ title: 'pack', steps: [{ title: 'socks' }] }] };
    const bad = { title: 'trip', steps: [{ title: 'pack', steps: [{ title: '' }] }] };
    const { ends } = await callEach('plan', [good, bad], [plan]);
    expect(ends[0]).toMatchObject({ text: 'planned trip' });
    expect(ends[1]!.error).toMatch(/"steps\.0\.steps\.0\.title" must NOT have fewer than 1 characters/);
    expect(ran).toBe(1);
  });
});

describe('a hand-written tool whose parameters have such a $ref', () => {
  it.each(LOOPS)('%s: refused when the agent is made, naming the tool and the $ref; nothing runs', (_name, parameters, why) => {
    let ran = 0;
    const odd: Tool = { name: 'odd', description: 'd', parameters, execute: () => (ran++, 'ran') };
    const make = () => new ReActAgent({ model: new ScriptedModel([{ text: 'unused' }]), tools: [odd] });
    expect(make).toThrow(TypeError);
    expect(make).toThrow(/^ReActAgent: the tool "odd": `parameters` cannot be checked against: /);
    expect(make).toThrow(why);
    expect(ran).toBe(0);
  });

  it('a $ref to a URL: refused when the agent is made, with ajv\'s words (nothing fetched)', () => {
    const odd: Tool = { name: 'odd', description: 'd', parameters: REMOTE, execute: () => 'ran' };
    expect(() => new ReActAgent({ model: new ScriptedModel([{ text: 'unused' }]), tools: [odd] })).toThrow(UNRESOLVED);
  });

  it('local $refs that recur through an item are checked as before', async () => {
    const plan: Tool = { name: 'plan', description: 'd', parameters: TREE, execute: () => 'planned' };
    const { ends } = await callEach('plan', [{ title: 'trip', steps: [{ title: 'pack' }] }, { title: 'trip', steps: [{}] }], [plan]);
    expect(ends[0]).toMatchObject({ text: 'planned' });
    expect(ends[1]!.error).toMatch(/"steps\.0" must have the property "title"/);
  });
});
