/**
 * A session's files have one stem (`sessionFileStem`). A messages file planted under another
 * spelling of an id — the hex of a plain id (`~6e6f746573` for "notes"), a plain stem of a
 * long id (stored by its hash), hex bytes that are no UTF-8 (`~ff`) — is no session's: `list`
 * must neither list it nor write or date the summary of the id it decodes to. Before, each
 * `list` "migrated" such a file into that id's summary, dated by the planted file's time
 * (capped at now): a planted future time then set "notes" to now on every `list`, pinning it
 * at the top, and `~ff.jsonl` made a summary for "\uFFFD". The clock is faked (Date only).
 */
import { mkdir, readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { describe, expect, it, vi } from 'vitest';
import { sessionFileStem, sessionIdOfFile } from '../../src/session/session-file-name.js';
import { frozenClockSessions } from './frozen-clock-sessions.js';

const NOW = Date.parse('2026-06-01T12:00:00Z');
const FAR_FUTURE = new Date('2999-01-01T00:00:00Z');

const { at, store } = frozenClockSessions(NOW);

/** Plants a messages file under `stem`, dated far in the future. */
async function plantTranscript(stem: string): Promise<void> {
  await writeFile(at(`${stem}.jsonl`), `${JSON.stringify({ role: 'user', content: 'planted' })}\n`);
  await utimes(at(`${stem}.jsonl`), FAR_FUTURE, FAR_FUTURE);
}

describe('a messages file planted under another spelling of a session id', () => {
  it('does not date the real session: one written later stays ahead of it, and its summary is untouched', async () => {
    await store().append('notes', [{ role: 'user', content: 'mine' }]);
    const summary = await readFile(at('notes.summary.json'), 'utf8');
    vi.setSystemTime(NOW + 1000);
    await store().append('other', [{ role: 'user', content: 'later' }]);
    await plantTranscript(`~${Buffer.from('notes').toString('hex')}`);
    for (const time of [NOW + 2000, NOW + 3000]) {
      vi.setSystemTime(time);
      expect((await store().list()).map((s) => [s.sessionId, s.lastActivityAt])).toEqual([
        ['other', NOW + 1000],
        ['notes', NOW],
      ]);
    }
    expect(await readFile(at('notes.summary.json'), 'utf8')).toBe(summary);
  });

  it('writes no summary for the id it decodes to (bytes that are no UTF-8, a long id by its plain stem)', async () => {
    const long = 'a'.repeat(201);
    await mkdir(at(''), { recursive: true });
    await plantTranscript('~ff');
    await plantTranscript(long);
    expect(await store().list()).toEqual([]);
    expect((await readdir(at(''))).sort()).toEqual([`${long}.jsonl`, '~ff.jsonl']);
  });

  it('sessionIdOfFile names only the id whose own stem it is', () => {
    expect(sessionIdOfFile(`~${Buffer.from('notes').toString('hex')}`)).toBeUndefined();
    expect(sessionIdOfFile('~ff')).toBeUndefined();
    expect(sessionIdOfFile('a'.repeat(201))).toBeUndefined();
    expect(sessionIdOfFile(sessionFileStem('Notes'))).toBe('Notes');
    expect(sessionIdOfFile('notes')).toBe('notes');
  });
});
