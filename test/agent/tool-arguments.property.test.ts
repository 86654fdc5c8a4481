import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import type { Tool } from '../../src/tools/tool.js';
import { collect, own } from '../support/collect-events.js';
import { conversationProblems } from '../support/conversation.js';
import { echoTool } from '../support/test-tools.js';

// Whatever a model sends as tool-call arguments, the run goes on: every call ends with one
// ToolCallEnd (with `error` exactly when the call could not run), the tool runs only with
// arguments that fit its schema, and the run ends with one RunEnd.

/** `{ n: integer 1..10 }`, nothing else: a schema with a numeric bound. */
function countTool(): Tool<{ n: number }> & { calls: number[] } {
  const calls: number[] = [];
  return {
    name: 'count',
    description: 'Counts to n.',
    parameters: { type: 'object', properties: { n: { type: 'integer', minimum: 1, maximum: 10 } }, required: ['n'], additionalProperties: false },
    calls,
    execute: ({ n }) => {
      calls.push(n);
      return Array.from({ length: n }, (_, i) => i + 1).join(',');
    },
  };
}

/** Text that looks like JSON but mostly is not. */
const jsonish = fc
  .array(fc.constantFrom('{', '}', '[', ']', '"', ':', ',', ' ', '\\', '\\u', 'n', 'null', 'true', '1', '-', 'e', '.', '"text"', '"n"', '\n', '\0'), { maxLength: 12 })
  .map((parts) => parts.join(''));

/** Valid JSON of shapes the tools do and do not take. */
const shaped = fc.oneof(
  fc.record({ text: fc.string() }),
  fc.record({ text: fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.string(), { maxLength: 2 })) }),
  fc.record({ text: fc.string(), extra: fc.jsonValue({ maxDepth: 1 }) }),
  fc.record({ n: fc.oneof(fc.integer({ min: -3, max: 14 }), fc.double(), fc.string({ maxLength: 3 })) }),
  fc.jsonValue({ maxDepth: 2 }),
).map((value) => JSON.stringify(value) ?? 'null');

const rawArguments = fc.oneof(fc.string({ unit: 'binary', maxLength: 20 }), jsonish, fc.json({ maxDepth: 2 }), shaped, fc.constantFrom('', '   ', '{}', '[]', 'null', '"x"', '{"text":"ok"}', '{"n":3}', '{"text":"a","text":1}', '{"__proto__":{"text":"x"}}'));

/** A call that fits its tool, so the valid path is exercised as often as the others. */
const fitting = fc.oneof(
  fc.string().map((text) => ({ name: 'echo', raw: JSON.stringify({ text }) })),
  fc.integer({ min: 1, max: 10 }).map((n) => ({ name: 'count', raw: JSON.stringify({ n }) })),
);

const call = fc.oneof(
  { arbitrary: fc.record({ name: fc.oneof(fc.constantFrom('echo', 'count', 'nope'), fc.string({ maxLength: 6 })), raw: rawArguments }), weight: 3 },
  { arbitrary: fitting, weight: 1 },
);

/** The independent oracle: JSON.parse (empty text counts as `{}`), then the schema by hand. */
function expectedArgs(name: string, raw: string): { valid: boolean; value?: Record<string, unknown>; badJson: boolean; unknown: boolean } {
  let value: unknown;
  try {
    value = raw.trim() === '' ? {} : JSON.parse(raw);
  } catch {
    return { valid: false, badJson: true, unknown: false };
  }
  if (name !== 'echo' && name !== 'count') return { valid: false, badJson: false, unknown: true };
  const object = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  const keys = object ? Object.keys(object) : [];
  const only = (key: string): boolean => keys.length === 1 && keys[0] === key;
  const valid =
    object !== undefined &&
    (name === 'echo'
      ? only('text') && typeof object['text'] === 'string'
      : only('n') && Number.isInteger(object['n']) && (object['n'] as number) >= 1 && (object['n'] as number) <= 10);
  return { valid, badJson: false, unknown: false, ...(valid ? { value: object } : {}) };
}

describe('random tool-call arguments through a ReActAgent', () => {
  it('never crash the run; each call gets one ToolCallEnd, with error exactly when it could not run', async () => {
    const seen = { valid: 0, badJson: 0, unknown: 0, badShape: 0 };
    await fc.assert(
      fc.asyncProperty(fc.array(call, { minLength: 1, maxLength: 4 }), async (calls) => {
        const echo = echoTool();
        const count = countTool();
        const model = new ScriptedModel((_request, { index }) =>
          index === 0 ? { toolCalls: calls.map((c, i) => ({ id: `c${i}`, name: c.name, args: c.raw })) } : { text: 'done' },
        );
        const events = await collect(new ReActAgent({ model, tools: [echo, count] }).stream('go'));

        expect(own(events, 'RunEnd')).toHaveLength(1);
        expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'done' });
        expect(own(events, 'ToolCallStart').map((e) => e.callId)).toEqual(calls.map((_, i) => `c${i}`));
        const ends = own(events, 'ToolCallEnd');
        expect(ends.map((e) => e.callId)).toEqual(calls.map((_, i) => `c${i}`));

        const ranEcho: string[] = [];
        const ranCount: number[] = [];
        for (const [i, c] of calls.entries()) {
          const expected = expectedArgs(c.name, c.raw);
          const end = ends[i]!;
          seen[expected.valid ? 'valid' : expected.badJson ? 'badJson' : expected.unknown ? 'unknown' : 'badShape'] += 1;
          expect(end.error === undefined, `call ${i} ${c.name}(${JSON.stringify(c.raw)}): ${end.error}`).toBe(expected.valid);
          if (expected.badJson) expect(end.error).toMatch(/not valid JSON/);
          else if (expected.unknown) expect(end.error).toMatch(/^Unknown tool/);
          if (!expected.valid) expect(end.text).toMatch(/^ERROR: /);
          if (expected.valid && c.name === 'echo') ranEcho.push(expected.value!['text'] as string);
          if (expected.valid && c.name === 'count') ranCount.push(expected.value!['n'] as number);
        }
        // The tools ran exactly for the valid calls, with exactly those arguments.
        expect(echo.calls.map((x) => x.args.text)).toEqual(ranEcho);
        expect(count.calls).toEqual(ranCount);

        // The model then read one tool message per call, in order, and a valid conversation.
        const second = model.requests[1]!.messages;
        expect(conversationProblems(second)).toEqual([]);
        const toolMessages = second.filter((m) => m.role === 'tool');
        expect(toolMessages.map((m) => m.content)).toEqual(ends.map((e) => e.text));
      }),
      { seed: 4_2025, numRuns: 150 },
    );
    // Every kind of call was generated often enough to matter.
    for (const [kind, n] of Object.entries(seen)) expect(n, kind).toBeGreaterThan(25);
  });
});
