/**
 * `parseNdjson` against input written to hurt it: huge lines, lines with no end, TaskWraps
 * nested 50,000 deep, thousands of lines in one chunk or one byte at a time, chunks of the
 * wrong kind. None of it may throw out of a subscriber, block for long, or grow without bound.
 */
import { from, lastValueFrom, Subject, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/events/index.js';
import { NdjsonParseError, parseNdjson } from '../../src/adapters/index.js';
import { FixtureRun } from './fixtures.js';

const MiB = 1024 * 1024;

/** A `TaskWrap` line `depth` levels deep around a `RunStart`, built as text (no recursion). */
function deepLine(depth: number): string {
  const open = '{"type":"TaskWrap","runId":"r","agentName":"a","parentRunId":"p","taskId":"t","taskIndex":1,' +
    '"taskAgentName":"a","taskDescription":"d","multitask":false,"event":';
  return `${open.repeat(depth)}{"type":"RunStart","runId":"r","agentName":"a","sessionId":"s","prompt":"p"}${'}'.repeat(depth)}`;
}

/** Feeds `chunks` and returns what the parser did; never lets an exception escape unseen. */
function feed(chunks: ReadonlyArray<string | Buffer>, options?: Parameters<typeof parseNdjson>[0]) {
  const events: AgentEvent[] = [];
  let error: unknown;
  let completed = false;
  const input = new Subject<string | Buffer>();
  input.pipe(parseNdjson(options)).subscribe({ next: (e) => events.push(e), error: (e: unknown) => (error = e), complete: () => (completed = true) });
  for (const chunk of chunks) {
    if (!input.observed) break;
    input.next(chunk);
  }
  if (input.observed) input.complete();
  return { events, error, completed, stillListening: input.observed };
}

describe('parseNdjson: long lines', () => {
  it('reads a 16 MB line that arrives in 4 KiB chunks, whole and as one event', () => {
    // How long it takes is bench/ndjson.ts's business (a linear reader spends the same time
    // per megabyte on 16 MB as on 1 MB; the old one, which searched the whole pending text on
    // every chunk, was quadratic): a time limit here would only measure the machine's load.
    const text = 'x'.repeat(16 * MiB);
    const line = `${JSON.stringify(new FixtureRun('r', 'main').end(text))}\n`;
    const chunks: string[] = [];
    for (let i = 0; i < line.length; i += 4096) chunks.push(line.slice(i, i + 4096));
    const { events, error, completed } = feed(chunks, { maxLineLength: 32 * MiB });
    expect(error).toBeUndefined();
    expect(completed).toBe(true);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'RunEnd', text: expect.stringMatching(/^x+$/) });
    expect((events[0] as { text: string }).text).toHaveLength(16 * MiB);
  });

  it('rejects a line longer than the default 10 MiB as soon as it is too long, before its end arrives', () => {
    const start = JSON.stringify(new FixtureRun('r', 'main').start('hi'));
    const chunks = [`${start}\n`, '{"type":"ReasonDelta","text":"', ...Array.from({ length: 11 }, () => 'y'.repeat(MiB))];
    const { events, error, stillListening } = feed(chunks);
    expect(events).toHaveLength(1);
    expect(error).toBeInstanceOf(NdjsonParseError);
    const parseError = error as NdjsonParseError;
    expect(parseError.lineNumber).toBe(2);
    expect(parseError.message).toMatch(
      /^NDJSON line 2 is longer than maxLineLength \(10485760 characters\); pass a larger maxLineLength to read it: \{"type":"ReasonDelta","text":"y+…$/,
    );
    // it keeps only the start of such a line, not megabytes of it
    expect(parseError.line.length).toBeLessThanOrEqual(1024);
    expect(stillListening).toBe(false);
  });

  it('applies the limit to a line that arrives whole in one chunk, and to the last line without a line break', () => {
    const line = JSON.stringify(new FixtureRun('r', 'main').start('z'.repeat(200)));
    expect(feed([`${line}\n`], { maxLineLength: 100 }).error).toBeInstanceOf(NdjsonParseError);
    expect(feed([line], { maxLineLength: 100 }).error).toBeInstanceOf(NdjsonParseError);
    // the limit counts what comes before the "\n", a "\r" of a CRLF line end included
    expect(feed([`${line}\r\n`], { maxLineLength: line.length + 1 }).events).toHaveLength(1);
    expect(feed([`${line}\n`], { maxLineLength: line.length }).events).toHaveLength(1);
    expect(feed([line.slice(0, 50), line.slice(50)], { maxLineLength: line.length }).events).toHaveLength(1);
    expect(feed([line.slice(0, 50), line.slice(50)], { maxLineLength: line.length - 1 }).error).toBeInstanceOf(NdjsonParseError);
  });

  it('refuses a limit that is not a positive whole number of characters', () => {
    for (const maxLineLength of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => parseNdjson({ maxLineLength })).toThrow(/^maxLineLength must be a whole number of characters, at least 1, got /);
    }
  });
});

describe('parseNdjson: deep nesting', () => {
  it('rejects a TaskWrap line 50,000 deep with a parse error instead of overflowing the stack', () => {
    const { events, error, stillListening } = feed([`${deepLine(50_000)}\n`]);
    expect(events).toEqual([]);
    expect(error).toBeInstanceOf(NdjsonParseError);
    expect((error as Error).message).toMatch(/^NDJSON line 1 is not an agent event: its TaskWraps nest more than 64 deep \(maxDepth\): /);
    expect(stillListening).toBe(false);
  });

  it('reads TaskWraps up to maxDepth (64 by default) and rejects one level more', () => {
    const ok = feed([`${deepLine(64)}\n`]);
    expect(ok.error).toBeUndefined();
    let depth = 0;
    for (let e: AgentEvent | undefined = ok.events[0]; e?.type === 'TaskWrap'; e = e.event) depth += 1;
    expect(depth).toBe(64);
    expect(feed([`${deepLine(65)}\n`]).error).toBeInstanceOf(NdjsonParseError);
    expect(feed([`${deepLine(3)}\n`], { maxDepth: 2 }).error).toBeInstanceOf(NdjsonParseError);
    expect(feed([`${deepLine(200)}\n`], { maxDepth: 200 }).events).toHaveLength(1);
  });

  it('still rejects a broken event deep inside the nesting', () => {
    const broken = deepLine(10).replace('"type":"RunStart"', '"type":"Nope"');
    const { error } = feed([`${broken}\n`]);
    expect((error as Error).message).toMatch(/^NDJSON line 1 is not an agent event \(expected/);
  });
});

describe('parseNdjson: many lines, tiny chunks, wrong chunks', () => {
  const main = new FixtureRun('r', 'main');
  const events = Array.from({ length: 10_000 }, (_, i) => main.reason(1, `delta ${i}`)[1]!);
  const text = events.map((e) => `${JSON.stringify(e)}\n`).join('');

  it('reads 10,000 lines from one chunk and from one-byte Buffers', async () => {
    expect(await lastValueFrom(from([text]).pipe(parseNdjson(), toArray()))).toEqual(events);
    const bytes = Buffer.from(events.slice(0, 3000).map((e) => `${JSON.stringify(e)}\n`).join(''));
    const pieces = Array.from({ length: bytes.length }, (_, i) => bytes.subarray(i, i + 1));
    expect(await lastValueFrom(from(pieces).pipe(parseNdjson(), toArray()))).toEqual(events.slice(0, 3000));
  });

  it('errors, rather than throwing, on a chunk that is neither a string nor a Buffer', () => {
    const { error } = feed([42 as unknown as string]);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(/^parseNdjson reads strings and Buffers, got number/);
  });
});
