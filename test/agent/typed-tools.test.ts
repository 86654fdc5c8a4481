import { toStandardJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ReActAgent } from '../../src/agent/react-agent.js';
import type { ToolCallEndEvent } from '../../src/events/agent-event.js';
import { ScriptedModel, type ScriptedToolCall } from '../../src/model/scripted-model.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { collect, own } from '../support/collect-events.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { openAIModelFor } from '../support/openai-model.js';

// Typed tools through a real ReActAgent: the model is offered the schema derived from
// `input`, a valid call reaches `execute` with the validated (transformed) value, and a bad
// one is a failed call the model reads, in today's wording, while the run goes on.

/** A zod tool that records what `execute` received: `count` arrives as a number. */
function zodTool() {
  const received: unknown[] = [];
  const tool = defineTool({
    name: 'repeat',
    description: 'Repeats a word.',
    input: z.strictObject({ word: z.string().min(1), count: z.string().regex(/^\d+$/).transform(Number) }),
    execute: (args) => {
      received.push(args);
      return args.word.repeat(args.count);
    },
  });
  return { tool, received };
}

/** A valibot tool (with its JSON side) that records what `execute` received. */
function valibotTool() {
  const received: unknown[] = [];
  const tool = defineTool({
    name: 'shout',
    description: 'Shouts a word.',
    input: toStandardJsonSchema(v.object({ word: v.pipe(v.string(), v.transform((s) => s.toUpperCase())) })),
    execute: (args) => {
      received.push(args);
      return `${args.word}!`;
    },
  });
  return { tool, received };
}

async function runCalls(calls: ScriptedToolCall[]) {
  const repeat = zodTool();
  const shout = valibotTool();
  const model = new ScriptedModel([{ toolCalls: calls }, { text: 'done' }]);
  const events = await collect(new ReActAgent({ model, tools: [repeat.tool, shout.tool] }).stream('go'));
  return { events, ends: own(events, 'ToolCallEnd'), model, repeat: repeat.received, shout: shout.received };
}

describe('typed tools in a ReActAgent', () => {
  it('offers the model the JSON schema derived from zod and valibot', async () => {
    const { model } = await runCalls([]);
    const offered = Object.fromEntries(model.requests[0]!.tools!.map((t) => [t.name, t.parameters]));
    expect(offered['repeat']).toEqual({
      type: 'object',
      properties: { word: { type: 'string', minLength: 1 }, count: { type: 'string', pattern: '^\\d+$' } },
      required: ['word', 'count'],
      additionalProperties: false,
    });
    expect(offered['shout']).toEqual({ type: 'object', properties: { word: { type: 'string' } }, required: ['word'] });
  });

  it('gives execute the validated output value', async () => {
    const run = await runCalls([
      { id: 'a', name: 'repeat', args: { word: 'ab', count: '3' } },
      { id: 'b', name: 'shout', args: { word: 'hey' } },
    ]);
    expect(run.repeat).toEqual([{ word: 'ab', count: 3 }]);
    expect(run.shout).toEqual([{ word: 'HEY' }]);
    expect(run.ends.map((e) => [e.text, e.error])).toEqual([['ababab', undefined], ['HEY!', undefined]]);
    // The events still show what the model sent.
    expect(own(run.events, 'ToolCallStart').map((e) => e.args)).toEqual([{ word: 'ab', count: '3' }, { word: 'hey' }]);
  });

  it('fails bad calls with the familiar message, runs nothing, and goes on', async () => {
    const run = await runCalls([
      { id: 'a', name: 'repeat', args: { word: '', count: 'x', loud: true } },
      { id: 'b', name: 'shout', args: {} },
      { id: 'c', name: 'repeat', args: { word: 'ok', count: '1' } },
    ]);
    const [a, b, c] = run.ends as [ToolCallEndEvent, ToolCallEndEvent, ToolCallEndEvent];
    expect(a.error).toBe(
      'The arguments of this repeat call do not match its schema: "word" too small: expected string to have >=1 characters; ' +
        '"count" invalid string: must match pattern /^\\d+$/; the arguments has an unknown property "loud". Nothing was run.',
    );
    expect(b.error).toBe('The arguments of this shout call do not match its schema: the arguments must have the property "word". Nothing was run.');
    expect(a.text).toBe(`ERROR: ${a.error}`);
    expect(c).toMatchObject({ text: 'ok' });
    expect(run.repeat).toEqual([{ word: 'ok', count: 1 }]);
    expect(run.shout).toEqual([]);
    expect(run.events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'done' });
    // The model read each failure as its tool message.
    const toolMessages = run.model.requests[1]!.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(toolMessages).toEqual([a.text, b.text, 'ok']);
  });
});

describe('a typed tool over HTTP (real openai client, fake server)', () => {
  let server: FakeOpenAIServer | undefined;
  afterEach(async () => {
    await server?.close();
  });

  it('sends the derived schema on the wire and runs the call the server asked for', async () => {
    const { tool, received } = zodTool();
    server = await FakeOpenAIServer.start({
      replies: [
        { toolCalls: [{ name: 'repeat', arguments: { word: 'x', count: 'two' } }, { name: 'repeat', arguments: { word: 'yo', count: '2' } }] },
        { text: 'finished' },
      ],
    });
    const events = await collect(new ReActAgent({ model: openAIModelFor(server), tools: [tool] }).stream('go'));
    const sent = server.requests[0]!.body.tools!.find((t) => t.function?.name === 'repeat')!;
    expect(sent.function!.parameters).toEqual(tool.parameters);
    expect(sent.function!.parameters).not.toHaveProperty('$schema');
    const ends = own(events, 'ToolCallEnd');
    expect(ends[0]!.error).toMatch(/do not match its schema: "count" invalid string: must match pattern/);
    expect(ends[1]).toMatchObject({ text: 'yoyo' });
    expect(received).toEqual([{ word: 'yo', count: 2 }]);
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'finished' });
  });
});
