/**
 * A model can spell a number JavaScript cannot hold (`1e400`, 400 digits): `JSON.parse` reads
 * it as `Infinity` without a word. A schema that only asks for a number (valibot's
 * `number()`) lets it through, the tool would get `Infinity`, and every event and approval
 * (JSON) would show `null` instead: a human would approve `{"wait":null}` for a call that
 * runs with `wait: Infinity`. Such a call is refused before anything sees it; the run goes on.
 */
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import fc from 'fast-check';
import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import { parseArguments } from '../../src/agent/tool-arguments.js';
import type { ApprovalRequest } from '../../src/permission/approval.js';
import { PermissionPolicy } from '../../src/permission/index.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { collect, own } from '../support/collect-events.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { openAIModelFor } from '../support/openai-model.js';

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A valibot tool that waits `wait` milliseconds; records what `execute` received. */
function waitTool() {
  const received: unknown[] = [];
  const tool = defineTool({
    name: 'pause',
    description: 'Waits a while.',
    input: toStandardJsonSchema(v.object({ wait: v.number(), note: v.optional(v.string()) })),
    execute: (args) => {
      received.push(args.wait);
      return `waited ${args.wait}`;
    },
  });
  return { tool, received };
}

async function runWith(raw: string, approve?: (request: ApprovalRequest) => { decision: 'approve' }) {
  server = await FakeOpenAIServer.start({ replies: [{ toolCalls: [{ name: 'pause', arguments: raw }] }, { text: 'went on' }] });
  const pause = waitTool();
  const permissions = new PermissionPolicy({ rules: [{ tool: 'pause', action: 'ask' }] });
  const agent = new ReActAgent({ model: openAIModelFor(server), tools: [pause.tool], ...(approve ? { approve, permissions } : {}) });
  const events = await collect(agent.stream('go'));
  return { events, end: own(events, 'ToolCallEnd')[0]!, received: pause.received };
}

describe('numbers that overflow to Infinity in tool arguments', () => {
  it('1e400 is refused, naming the argument; the tool never runs, nobody is asked, the run goes on', async () => {
    const asked: unknown[] = [];
    const { events, end, received } = await runWith('{"note":"ok","wait":1e400}', (request) => {
      asked.push(request.args);
      return { decision: 'approve' };
    });
    expect(end.error).toBe(
      'The arguments of this pause call are not valid JSON (the number at "wait" is too large to hold (it overflows to Infinity); ' +
        'send a smaller number, or the digits as a string). Nothing was run; call it again with a JSON object.',
    );
    expect(received).toEqual([]);
    expect(asked).toEqual([]);
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'went on' });
    expect(server!.requests[1]!.body.messages!.at(-1)).toMatchObject({ role: 'tool', content: `ERROR: ${end.error}` });
  });

  it('400 digits, and -1e999 deep in a list, are refused alike', async () => {
    expect((await runWith(`{"wait":${'9'.repeat(400)}}`)).end.error).toContain('the number at "wait" is too large');
    expect(parseArguments('{"a":[{"b":[1,-1e999]}]}')).toMatchObject({ ok: false, error: expect.stringContaining('the number at "a.0.b.1" is too large') });
    expect(parseArguments('1e400')).toMatchObject({ ok: false, error: expect.stringContaining('the arguments are a number too large') });
  });

  it('a literal whose digits and exponent add up past the limit is refused too (300 digits and e10)', () => {
    for (const literal of [`1${'0'.repeat(299)}e10`, `2${'0'.repeat(209)}e99`, `-1${'0'.repeat(200)}e+200`]) {
      expect(parseArguments(`{"n":${literal}}`), literal).toMatchObject({ ok: false });
    }
    expect(parseArguments(`{"n":1${'0'.repeat(200)}e100}`)).toMatchObject({ ok: true });
  });

  it('large but finite numbers, and overflow-looking text inside strings, pass untouched', async () => {
    const { end, received } = await runWith('{"wait":1e300,"note":"1e400 and 9e999"}');
    expect(end.error).toBeUndefined();
    expect(received).toEqual([1e300]);
    expect(parseArguments(`{"n":${'1'.repeat(308)}}`)).toMatchObject({ ok: true });
  });

  it('property: whatever JSON text parses to, it is accepted exactly when every number in it is finite', () => {
    const literal = fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }).map(String), fc.constantFrom('1e400', '-1e999', '1E+308', '1e308', '2e308', `${'9'.repeat(309)}`),
      // Digits and exponent add up: 300 digits and e10 overflow, though neither part alone would.
      fc.tuple(fc.integer({ min: 0, max: 320 }), fc.integer({ min: 0, max: 320 })).map(([zeros, exponent]) => `1${'0'.repeat(zeros)}e${exponent}`),
    );
    const text = fc.array(fc.tuple(fc.string({ maxLength: 4 }), literal), { maxLength: 6 }).map((pairs) => `{${pairs.map(([k, n], i) => `${JSON.stringify(`${k}${i}`)}:[${n}]`).join(',')}}`);
    fc.assert(
      fc.property(text, (raw) => {
        const value: unknown = JSON.parse(raw);
        const finite = Object.values(value as Record<string, number[]>).every((list) => list.every(Number.isFinite));
        expect(parseArguments(raw).ok).toBe(finite);
      }),
    );
  });
});
