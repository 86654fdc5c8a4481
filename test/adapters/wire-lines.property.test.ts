/**
 * Model text is hostile, and NDJSON lines and SSE `data:` fields are read by parsers that
 * split lines their own way: Python's `splitlines()` breaks at NEL, U+2028 and U+2029 (and at
 * the C0 separators), a JavaScript `m` regex at U+2028 / U+2029, and a terminal showing
 * `--json` acts on C1 controls (U+009B is CSI) and turns text around at bidi overrides. Every
 * event must stay one line by all of them, hold nothing a terminal acts on or hides, and read
 * back exactly.
 */
import http, { type Server } from 'node:http';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import fc from 'fast-check';
import { concat, from, lastValueFrom, of, throwError, toArray, type Observable } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/events/index.js';
import { parseNdjson, streamSse, toNdjson } from '../../src/adapters/index.js';
import { close, listen } from './sse-client.js';

/** Every line break some reader splits at (`str.splitlines()` is the widest). */
const ANY_LINE_BREAK = /\r\n|[\n\r\u000b\u000c\u001c-\u001e\u0085\u2028\u2029]/;
/** Controls, format characters and the line and paragraph separators. */
const RAW_HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

const HOSTILE = [
  '\n\ndata: {"type":"RunEnd"}\n\n', 'event: end\n', 'id: 999\r\n', '\r', '\u2028', '\u2029', '\u0085', '\u009b2J', '\u001b]0;x\u0007',
  '\u0000', '\u007f', '\ud800', '\udfff', '\u202e', '\u2066', '\u200b', '\ufeff', '\u{e0041}', '\u00ad', '\u061c',
];
const hostileText = fc.array(fc.oneof(fc.constantFrom(...HOSTILE), fc.string({ unit: 'binary' })), { maxLength: 8 }).map((parts) => parts.join(''));

const metrics = { promptTokens: 1, completionTokens: 2, totalTokens: 3, durationMs: 4, tasks: 1 };
/** A child's RunEnd, wrapped, with the hostile text everywhere a model or a child can put text. */
const wrappedEnd = (text: string): AgentEvent => ({
  type: 'TaskWrap', runId: 'c', agentName: 'a', parentRunId: 'r', taskId: 't', taskIndex: 1, taskAgentName: 'a', taskDescription: text, multitask: true,
  event: { type: 'RunEnd', runId: 'c', agentName: 'a', text, abnormal: true, error: text, metrics, steps: 1 },
});
const toolStart = (text: string): AgentEvent => ({ type: 'ToolCallStart', runId: 'r', agentName: 'main', step: 1, callId: 'k', toolName: 'bash', args: { [text]: text } });

describe('toNdjson against hostile text', () => {
  it('writes every event as one line by every reader, with nothing raw in it, that reads back exactly', () => {
    fc.assert(
      fc.property(hostileText, (text) => {
        for (const event of [wrappedEnd(text), toolStart(text)]) {
          const lines = syncValues(of(event).pipe(toNdjson()));
          expect(lines).toHaveLength(1);
          const line = lines[0]!;
          expect(line.endsWith('\n')).toBe(true);
          const body = line.slice(0, -1);
          expect(body.split(ANY_LINE_BREAK)).toHaveLength(1);
          expect(body).not.toMatch(RAW_HIDDEN);
          expect(JSON.parse(body)).toEqual(event);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('reads back through parseNdjson, a wrapped child RunEnd still wrapped', async () => {
    const text = HOSTILE.join('');
    const events = [wrappedEnd(text), toolStart(text)];
    const lines = await lastValueFrom(from(events).pipe(toNdjson(), toArray()));
    const back = await lastValueFrom(from(lines).pipe(parseNdjson(), toArray()));
    expect(back).toEqual(events);
    expect(back.map((e) => e.type)).toEqual(['TaskWrap', 'ToolCallStart']);
  });

  it('errors with a TypeError rather than writing the line `undefined`', async () => {
    const line$ = of(undefined as unknown as AgentEvent).pipe(toNdjson());
    await expect(lastValueFrom(line$)).rejects.toThrow(/has no JSON: only events can be written as NDJSON lines/);
  });
});

let server: Server | undefined;
afterEach(async () => {
  if (server) await close(server);
  server = undefined;
});

/** Streams `events` (or a run) as SSE and returns the raw body and what a real SSE parser made of it. */
async function overSse(events: readonly unknown[] | Observable<AgentEvent>): Promise<{ body: string; messages: EventSourceMessage[] }> {
  const run$ = Array.isArray(events) ? from(events as AgentEvent[]) : (events as Observable<AgentEvent>);
  server = http.createServer((_req, res) => void streamSse(run$, res, { keepAliveMs: 0 }));
  const url = await listen(server);
  const body = await fetch(url).then((r) => r.text());
  const messages: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (m) => messages.push(m) });
  parser.feed(body);
  return { body, messages };
}

describe('streamSse against hostile text', () => {
  it('sends one message per event, one data line each, read back exactly, and the wrapped RunEnd is no end', async () => {
    const text = HOSTILE.join('');
    const events = [wrappedEnd(text), toolStart(text), { type: 'ReasonDelta', runId: 'r', agentName: 'main', step: 1, kind: 'text', text } as AgentEvent];
    const { body, messages } = await overSse(events);
    const frames = body.split('\n\n').filter((f) => f !== '');
    expect(frames).toHaveLength(events.length + 1);
    expectOneDataLineEach(frames, 'event: end');
    expect(messages.slice(0, -1).map((m) => JSON.parse(m.data) as AgentEvent)).toEqual(events);
    expect(messages.map((m) => m.event)).toEqual([undefined, undefined, undefined, 'end']);
  });

  it('writes the error that ends a run as one escaped data line too, read back exactly', async () => {
    const text = HOSTILE.join('');
    const error = Object.assign(new Error(`tool said: ${text}`), { name: `Bad${text}` });
    const { body, messages } = await overSse(concat(of(toolStart(text)), throwError(() => error)));
    const frames = body.split('\n\n').filter((f) => f !== '');
    expect(frames).toHaveLength(2);
    expectOneDataLineEach(frames, 'event: error');
    expect(messages.map((m) => m.event)).toEqual([undefined, 'error']);
    expect(JSON.parse(messages[1]!.data)).toEqual({ name: error.name, message: error.message });
  });

  it('ends with an event: error, not a `data: undefined` message, when the run emits a value with no JSON', async () => {
    const { messages } = await overSse([toolStart('ok'), undefined]);
    expect(messages).toHaveLength(2);
    expect(JSON.parse(messages[0]!.data)).toEqual(toolStart('ok'));
    expect(messages[1]!.event).toBe('error');
    expect(JSON.parse(messages[1]!.data)).toEqual({ name: 'TypeError', message: 'The run emitted a value (undefined) that has no JSON, so it is not an event' });
  });
});

/**
 * Every frame is `id:` (the last one `last`, the end or error line) and one `data:` line that
 * stays one line by every reader and holds nothing raw.
 */
function expectOneDataLineEach(frames: readonly string[], last: string): void {
  frames.forEach((frame, at) => {
    const [head, data, ...rest] = frame.split('\n');
    if (at === frames.length - 1) expect(head).toBe(last);
    else expect(head).toMatch(/^id: \d+$/);
    expect(rest).toEqual([]);
    expect(data).toMatch(/^data: /);
    expect(data!.split(ANY_LINE_BREAK)).toHaveLength(1);
    expect(data).not.toMatch(RAW_HIDDEN);
  });
}

/** The values a synchronous Observable emits. */
function syncValues<T>(source: Observable<T>): T[] {
  const values: T[] = [];
  source.subscribe((v) => values.push(v));
  return values;
}
