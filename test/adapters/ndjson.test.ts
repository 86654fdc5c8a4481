import { PassThrough, Writable } from 'node:stream';
import { finalize, from, lastValueFrom, NEVER, Observable, of, Subject, throwError, toArray } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/events/index.js';
import { NdjsonParseError, parseNdjson, toNdjson, writeNdjson } from '../../src/adapters/index.js';
import { FixtureRun, multitaskRun, nestedRun } from './fixtures.js';

const newScheduler = (): TestScheduler => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

function parseError(chunks: Array<string | Buffer>): NdjsonParseError {
  let caught: unknown;
  from(chunks).pipe(parseNdjson()).subscribe({ error: (e: unknown) => (caught = e) });
  if (!(caught instanceof NdjsonParseError)) throw new Error(`expected an NdjsonParseError, got ${String(caught)}`);
  return caught;
}

describe('toNdjson', () => {
  it('writes one JSON line per event (marbles)', () => {
    const main = new FixtureRun('r', 'main');
    const s = main.start('hi');
    const e = main.end('bye');
    newScheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold('a--b|', { a: s, b: e }).pipe(toNdjson())).toBe('a--b|', {
        a: `${JSON.stringify(s)}\n`,
        b: `${JSON.stringify(e)}\n`,
      });
    });
  });
});

describe('parseNdjson', () => {
  it('emits each event when the chunk that completes its line arrives (marbles)', () => {
    const main = new FixtureRun('r', 'main');
    const [s, e] = [main.start('hi'), main.end('bye')];
    const text = `${JSON.stringify(s)}\n${JSON.stringify(e)}`;
    const cut1 = 10;
    const cut2 = JSON.stringify(s).length + 5;
    newScheduler().run(({ cold, expectObservable }) => {
      const chunks = cold('a-b-c|', { a: text.slice(0, cut1), b: text.slice(cut1, cut2), c: text.slice(cut2) });
      // the last line has no line break: it is read at completion
      expectObservable(chunks.pipe(parseNdjson())).toBe('--s--(e|)', { s, e });
    });
  });

  it('reads Buffers split inside a multi-byte character, CRLF line ends and blank lines', async () => {
    const main = new FixtureRun('r', 'main');
    const events = [main.start('总结这个项目 🚀'), main.end('完成')];
    const bytes = Buffer.from(`${JSON.stringify(events[0])}\r\n\r\n${JSON.stringify(events[1])}\n\n`);
    const cut = bytes.indexOf(Buffer.from('总')) + 1; // inside the three bytes of 总
    const parsed = await lastValueFrom(from([bytes.subarray(0, cut), bytes.subarray(cut)]).pipe(parseNdjson(), toArray()));
    expect(parsed).toEqual(events);
  });

  it('rejects a line that is not JSON, naming its line number (blank lines count)', () => {
    const good = JSON.stringify(new FixtureRun('r', 'main').start('x'));
    const error = parseError([`${good}\n\n`, '{"type": "RunEnd", oops\n', `${good}\n`]);
    expect(error.name).toBe('NdjsonParseError');
    expect(error.lineNumber).toBe(3);
    expect(error.message).toMatch(/^NDJSON line 3 is not valid JSON \(.+\): \{"type": "RunEnd", oops$/);
  });

  it('rejects JSON that is not an event, and a final unterminated bad line', () => {
    const notEvent = parseError(['{"type":"Nope","runId":"r","agentName":"a"}\n']);
    expect(notEvent.lineNumber).toBe(1);
    expect(notEvent.message).toContain('NDJSON line 1 is not an agent event');
    const last = parseError([`${JSON.stringify(new FixtureRun('r', 'main').start('x'))}\n`, '[1,2']);
    expect(last.lineNumber).toBe(2);
  });

  it('unsubscribes its input after a bad line', () => {
    const input = new Subject<string>();
    const seen: AgentEvent[] = [];
    let failed = false;
    input.pipe(parseNdjson()).subscribe({ next: (e) => seen.push(e), error: () => (failed = true) });
    input.next('not json\n');
    expect(failed).toBe(true);
    expect(input.observed).toBe(false);
    expect(seen).toEqual([]);
  });
});

describe('writeNdjson', () => {
  it('round-trips: what it writes parses back to the same events', async () => {
    const { events } = multitaskRun();
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    await writeNdjson(from(events), out, { end: true });
    const all = Buffer.concat(chunks);
    expect(all.toString('utf8').split('\n')).toHaveLength(events.length + 1);
    // re-chunk at odd sizes so lines are split mid-way
    const pieces: Buffer[] = [];
    for (let i = 0; i < all.length; i += 97) pieces.push(all.subarray(i, i + 97));
    expect(await lastValueFrom(from(pieces).pipe(parseNdjson(), toArray()))).toEqual(events);
  });

  it('waits for drain instead of writing past a full buffer', async () => {
    const { events } = nestedRun();
    const received: string[] = [];
    let writesWhileFull = 0;
    const slow = new Writable({
      highWaterMark: 1,
      write(chunk: Buffer, _encoding, callback) {
        received.push(chunk.toString());
        setImmediate(callback);
      },
    });
    const write = slow.write.bind(slow) as (chunk: string) => boolean;
    slow.write = ((chunk: string) => {
      if (slow.writableNeedDrain) writesWhileFull += 1;
      return write(chunk);
    }) as typeof slow.write;
    await writeNdjson(from(events), slow, { end: true });
    expect(writesWhileFull).toBe(0);
    expect(received.join('')).toBe(events.map((e) => `${JSON.stringify(e)}\n`).join(''));
    expect(slow.writableFinished).toBe(true);
  });

  it('leaves the output open by default and rejects with the run’s error', async () => {
    const out = new PassThrough();
    await writeNdjson(of(new FixtureRun('r', 'main').start('x')), out);
    expect(out.writableEnded).toBe(false);
    await expect(writeNdjson(throwError(() => new Error('model down')), out)).rejects.toThrow('model down');
  });

  it('stops the run when the output closes early', async () => {
    let tornDown = false;
    const source = new Observable<AgentEvent>((subscriber) => {
      subscriber.next(new FixtureRun('r', 'main').start('x'));
    }).pipe(finalize(() => (tornDown = true)));
    const out = new PassThrough();
    out.resume();
    const done = writeNdjson(source, out);
    out.destroy();
    await expect(done).rejects.toThrow('The NDJSON output closed before the event stream ended');
    expect(tornDown).toBe(true);
  });

  it('rejects when the output fails', async () => {
    const out = new PassThrough();
    const done = writeNdjson(NEVER, out);
    out.destroy(new Error('disk full'));
    await expect(done).rejects.toThrow('disk full');
  });
});
