/**
 * A summary planted with a far-future `lastActivityAt` must not pin its session at the top of
 * `list` for ever (a session's time is never set back, and every real session's is earlier).
 * A stored time later than now plus a few minutes (FUTURE_ALLOWANCE_MS) is read as none, as
 * in a summary from before times were kept: the transcript file's time stands in, never later
 * than now, and the summary is rewritten with it. The clock is faked (Date only), so "now" is fixed.
 */
import { readFile, utimes, writeFile } from 'node:fs/promises';
import { describe, expect, it, vi } from 'vitest';
import { FUTURE_ALLOWANCE_MS } from '../../src/session/session-summary-file.js';
import { frozenClockSessions } from './frozen-clock-sessions.js';

const NOW = Date.parse('2026-06-01T12:00:00Z');
const FAR_FUTURE = Date.parse('2999-01-01T00:00:00Z');
const PAST = new Date('2020-01-01T00:00:00Z');

const { at, store } = frozenClockSessions(NOW);

/** Plants session "planted": a transcript dated `fileTime`, and a summary claiming `lastActivityAt`. */
async function plant(lastActivityAt: number, fileTime: Date): Promise<void> {
  await writeFile(at('planted.jsonl'), `${JSON.stringify({ role: 'user', content: 'pinned?' })}\n`);
  await writeFile(at('planted.summary.json'), JSON.stringify({ sessionId: 'planted', title: 'pinned?', lastActivityAt }));
  await utimes(at('planted.jsonl'), fileTime, fileTime);
}

describe('a summary planted with a last activity in the future', () => {
  it('is ordered by its transcript file time instead, and its summary is rewritten with that time', async () => {
    await store().append('real', [{ role: 'user', content: 'hello' }]);
    await plant(FAR_FUTURE, PAST);
    const listed = await store().list();
    expect(listed).toEqual([
      { sessionId: 'real', title: 'hello', lastActivityAt: NOW },
      { sessionId: 'planted', title: 'pinned?', lastActivityAt: PAST.getTime() },
    ]);
    expect(JSON.parse(await readFile(at('planted.summary.json'), 'utf8'))).toMatchObject({ lastActivityAt: PAST.getTime() });
  });

  it('with its transcript dated in the future too: taken as now, so a session written later comes first', async () => {
    await store().append('older', [{ role: 'user', content: 'first' }]);
    await plant(FAR_FUTURE, new Date(FAR_FUTURE));
    vi.setSystemTime(NOW + 1000);
    expect((await store().list()).map((s) => [s.sessionId, s.lastActivityAt])).toEqual([
      ['planted', NOW + 1000],
      ['older', NOW],
    ]);
    vi.setSystemTime(NOW + 2000);
    await store().append('later', [{ role: 'user', content: 'then' }]);
    expect((await store().list()).map((s) => s.sessionId)).toEqual(['later', 'planted', 'older']);
  });

  it('a time within the allowance (a clock a little ahead) is kept as it is', async () => {
    await store().append('real', [{ role: 'user', content: 'hello' }]);
    await plant(NOW + FUTURE_ALLOWANCE_MS, PAST);
    expect((await store().list()).map((s) => [s.sessionId, s.lastActivityAt])).toEqual([
      ['planted', NOW + FUTURE_ALLOWANCE_MS],
      ['real', NOW],
    ]);
  });
});
