/**
 * FileSessionStore file names: each session's files are its stem plus a suffix, and one
 * suffix ends another (`.jsonl`, `.archive.jsonl`), so an id such as "notes.archive" must not
 * be its own stem, or it would share a file with the archive of "notes".
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/model/chat-message.js';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import {
  messagesFileStem,
  SESSION_FILE_SUFFIXES,
  sessionFileName,
  sessionFileStem,
  sessionIdOfFile,
  type SessionFileKind,
} from '../../src/session/session-file-name.js';
import { toolContextPerTest } from '../support/tool-context-per-test.js';

const fresh = toolContextPerTest();

const user = (content: string): ChatMessage => ({ role: 'user', content });
const assistant = (content: string): ChatMessage => ({ role: 'assistant', content });
const KINDS = Object.keys(SESSION_FILE_SUFFIXES) as SessionFileKind[];

/** "notes" with an archive (one compaction) and an "always" approval. */
async function compactedNotes(store: FileSessionStore): Promise<readonly ChatMessage[]> {
  await store.append('notes', [user('secret of notes'), assistant('ok')]);
  await store.replace('notes', [user('[summary]'), assistant('ok')]);
  await store.saveGrant('notes', { toolName: 'bash', subject: 'ls' });
  return store.loadArchive('notes');
}

describe('FileSessionStore: an id ending in another file\'s suffix ("notes.archive", "notes.grants")', () => {
  it('is its own conversation: loading, writing and deleting it leave "notes" and its archive and grants alone', async () => {
    const store = new FileSessionStore(fresh.ws.dir, { grantKey: 'test grant key' });
    const archive = await compactedNotes(store);
    const grants = await store.loadGrants('notes');
    expect(await store.load('notes.archive')).toEqual([]);
    expect(await store.loadGrants('notes.grants')).toEqual([]);
    await store.append('notes.archive', [user('another conversation'), assistant('hi')]);
    await store.append('notes.grants', [user('a third'), assistant('hi')]);
    expect(await store.loadArchive('notes')).toEqual(archive);
    expect(await store.loadGrants('notes')).toEqual(grants);
    await store.delete('notes.archive');
    await store.delete('notes.grants');
    expect(await store.loadArchive('notes')).toEqual(archive);
    expect(await store.loadGrants('notes')).toEqual(grants);
  });

  it('survives the deletion of "notes", and is listed under its own id', async () => {
    const store = new FileSessionStore(fresh.ws.dir, { grantKey: 'test grant key' });
    await store.append('notes.archive', [user('my own conversation'), assistant('hi')]);
    await store.append('notes.grants.archive', [user('mine too'), assistant('hi')]);
    await compactedNotes(store);
    await store.delete('notes');
    expect(await store.load('notes.archive')).toEqual([user('my own conversation'), assistant('hi')]);
    const listed = await new FileSessionStore(fresh.ws.dir, { home: fresh.ws.home }).list();
    expect(listed.map((s) => s.sessionId).sort()).toEqual(['notes.archive', 'notes.grants.archive']);
  });
});

/** Ids built from the pieces that matter: suffix words, dots, case, the encoded form's own alphabet. */
const piece = fc.constantFrom('notes', '.', 'archive', 'grants', 'task', 'summary', 'json', 'jsonl', 'A', 'a', '~', '~~', '6e', '-', '_', 'con', 'é', '/');
const id = fc.oneof(
  { weight: 9, arbitrary: fc.array(piece, { minLength: 1, maxLength: 8 }).map((parts) => parts.join('')) },
  { weight: 1, arbitrary: fc.string({ minLength: 190, maxLength: 210, unit: fc.constantFrom('a', '.', 'archive') }) },
);

describe('session file names (property)', () => {
  it('distinct ids never share a file name, even ignoring case; a messages file names its own stem, which names its id', () => {
    fc.assert(
      fc.property(fc.uniqueArray(id, { minLength: 2, maxLength: 12 }), (ids) => {
        const owner = new Map<string, string>();
        for (const sessionId of ids) {
          for (const kind of KINDS) {
            const name = sessionFileName(sessionId, kind).toLowerCase();
            expect(owner.get(name) ?? sessionId, `${name}: ${owner.get(name)} and ${sessionId}`).toBe(sessionId);
            owner.set(name, sessionId);
            // list() takes only a messages file for a session, and maps its stem back.
            const stem = messagesFileStem(sessionFileName(sessionId, kind));
            expect(stem).toBe(kind === 'messages' ? sessionFileStem(sessionId) : undefined);
          }
          const stem = sessionFileStem(sessionId);
          if (!stem.startsWith('~~')) expect(sessionIdOfFile(stem)).toBe(sessionId);
        }
      }),
    );
  });
});
