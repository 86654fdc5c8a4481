import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { MemoryEventLog } from '../../src/runs/memory-event-log.js';
import type { SequencedEvent } from '../../src/runs/run-types.js';

const event = (n: number): AgentEvent => ({ type: 'ActionEnd', runId: 'r', agentName: 'main', step: n });
const entry = (seq: number): SequencedEvent => ({ runId: 'r', seq, event: event(seq) });

function reader(log: MemoryEventLog, after: number) {
  const seen: number[] = [];
  let ended: string | undefined;
  const subscription = log.read('r', after).subscribe({
    next: (e) => seen.push(e.seq),
    complete: () => (ended = 'complete'),
    error: (e: Error) => (ended = `${e.name}: ${e.message}`),
  });
  return { seen, ended: () => ended, subscription };
}

describe('MemoryEventLog', () => {
  it('property: a reader attached at any seq, at any moment, sees exactly the events after it, once, in order', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.array(fc.tuple(fc.nat(40), fc.nat(40)), { maxLength: 8 }), (total, attaches) => {
        const log = new MemoryEventLog();
        const readers: { after: number; r: ReturnType<typeof reader> }[] = [];
        for (let seq = 1; seq <= total; seq++) {
          // A log exists from its first event on (the registry appends RunStart as it starts the run).
          for (const [at, after] of attaches) if (seq > 1 && at === seq - 1) readers.push({ after, r: reader(log, Math.min(after, total)) });
          log.append(entry(seq));
        }
        log.end('r', { kind: 'complete' });
        readers.push({ after: 3, r: reader(log, 3) }); // after the end: a pure replay
        for (const { after, r } of readers) {
          const from = Math.min(after, total);
          expect(r.seen).toEqual(Array.from({ length: total - from }, (_, i) => from + i + 1));
          expect(r.ended()).toBe('complete');
        }
      }),
      { numRuns: 200 },
    );
  });

  it('a consumer that appends while it reads still sees each event once, in order', () => {
    const log = new MemoryEventLog();
    log.append(entry(1));
    const seen: number[] = [];
    log.read('r', 0).subscribe((e) => {
      seen.push(e.seq);
      if (e.seq < 5) log.append(entry(e.seq + 1));
    });
    expect(seen).toEqual([1, 2, 3, 4, 5]);
  });

  it('readers that leave or join while an event is delivered: the leaver sees nothing more, the joiner each event once', () => {
    const log = new MemoryEventLog();
    log.append(entry(1));
    const late: number[] = [];
    let second: ReturnType<typeof reader> | undefined;
    log.read('r', 0).subscribe((e) => {
      if (e.seq === 2) second!.subscription.unsubscribe();
      if (e.seq === 3) log.read('r', 2).subscribe((x) => late.push(x.seq));
    });
    second = reader(log, 0);
    for (let seq = 2; seq <= 4; seq++) log.append(entry(seq));
    // The first reader is notified first: at seq 2 it removes the second before its turn.
    expect(second.seen).toEqual([1]);
    expect(late).toEqual([3, 4]);
  });

  it('a cancelled log errors its readers with AbortError after the last event; a failed one with its message', () => {
    const log = new MemoryEventLog();
    log.append(entry(1));
    const r = reader(log, 0);
    log.end('r', { kind: 'cancelled', reason: 'the run was cancelled' });
    expect(r.seen).toEqual([1]);
    expect(r.ended()).toBe('AbortError: The run was aborted: the run was cancelled');
    const failed = new MemoryEventLog();
    failed.append(entry(1));
    failed.end('r', { kind: 'failed', message: 'the model went away' });
    expect(reader(failed, 0).ended()).toBe('Error: the model went away');
  });

  it('refuses a gap or a repeat, drops an append after the end; an unknown log errors its reader', () => {
    const log = new MemoryEventLog();
    expect(() => log.append(entry(2))).toThrow('event 2 appended after 0; seqs must follow one another');
    log.append(entry(1));
    expect(() => log.append(entry(1))).toThrow('event 1 appended after 1');
    log.end('r', { kind: 'complete' });
    expect(() => log.append(entry(2))).not.toThrow();
    expect(reader(log, 0).seen).toEqual([1]);
    expect(reader(new MemoryEventLog(), 0).ended()).toMatch(/^UnknownRunError: unknown run "r"/);
  });

  it('unsubscribing a reader stops it and leaves no listener behind; deleting a log ends its readers', () => {
    const log = new MemoryEventLog();
    log.append(entry(1));
    const r = reader(log, 0);
    r.subscription.unsubscribe();
    log.append(entry(2));
    expect(r.seen).toEqual([1]);
    const live = reader(log, 0);
    log.delete('r');
    expect(live.seen).toEqual([1, 2]);
    expect(live.ended()).toMatch(/^UnknownRunError/);
  });
});
