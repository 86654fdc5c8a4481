import { afterEach, describe, expect, it } from 'vitest';
import { firstValueFrom, lastValueFrom, toArray } from 'rxjs';
import type { HarnessEngine } from '../../src/engine/harness-engine.js';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';
import { UnknownRunError } from '../../src/runs/unknown-run-error.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';

// A deleted conversation's finished runs carry its prompts and answers: a new conversation
// of the id must neither list them nor replay them by their ids.
let f: DelegationFixture;
const engines: HarnessEngine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((e) => e.close()));
  await f.close();
});

async function fixture(options: (f: DelegationFixture) => Parameters<DelegationFixture['engine']>[0] = () => ({})): Promise<HarnessEngine> {
  f = await startDelegationFixture({ main: (turn) => ({ text: turn.prompt === 'MY-SECRET-PROMPT' ? 'MY-SECRET-ANSWER' : 'fresh' }) });
  return keep(f.engine(options(f)));
}
const keep = (engine: HarnessEngine): HarnessEngine => (engines.push(engine), engine);
const ids = (engine: HarnessEngine, sessionId: string): string[] => engine.runs.list({ sessionId }).map((r) => r.runId);
const refusal = (engine: HarnessEngine, runId: string): Promise<unknown> => firstValueFrom(engine.runs.attach(runId)).then(() => 'replayed', (e: unknown) => e);

describe('deleting a conversation through the engine', () => {
  it('forgets its finished runs: neither listed for a new conversation of the id nor replayable', async () => {
    const engine = await fixture((at) => ({ sessions: new FileSessionStore(at.workspace.dir, { home: at.workspace.home }) }));
    const old = engine.start('MY-SECRET-PROMPT', { sessionId: 's1' });
    await old.result;
    await engine.sessions.delete!('s1');
    const fresh = engine.start('hello', { sessionId: 's1' });
    await fresh.result;
    expect(ids(engine, 's1')).toEqual([fresh.runId]);
    expect(engine.runs.get(old.runId)).toBeUndefined();
    expect(await refusal(engine, old.runId)).toBeInstanceOf(UnknownRunError);
  });

  it('keeps the runs of other conversations, listed and replayable', async () => {
    const engine = await fixture();
    const gone = engine.start('MY-SECRET-PROMPT', { sessionId: 's1' });
    const other = engine.start('hello', { sessionId: 's2' });
    await Promise.all([gone.result, other.result]);
    await engine.sessions.delete!('s1');
    expect(ids(engine, 's1')).toEqual([]);
    expect(ids(engine, 's2')).toEqual([other.runId]);
    const events = await lastValueFrom(engine.runs.attach(other.runId).pipe(toArray()));
    expect(events.at(-1)?.event.type).toBe('RunEnd');
  });

  it('deleted by another engine on the same MemorySessionStore, forgets its runs too', async () => {
    const store = new MemorySessionStore();
    const a = await fixture(() => ({ sessions: store }));
    const b = keep(f.engine({ sessions: store }));
    const old = a.start('MY-SECRET-PROMPT', { sessionId: 's1' });
    await old.result;
    await b.sessions.delete!('s1');
    expect(ids(a, 's1')).toEqual([]);
    expect(await refusal(a, old.runId)).toBeInstanceOf(UnknownRunError);
  });
});
