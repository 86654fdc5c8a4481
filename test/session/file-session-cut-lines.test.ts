import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/model/chat-message.js';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { toolContextPerTest } from '../support/tool-context-per-test.js';

const fresh = toolContextPerTest();

const user = (content: string): ChatMessage => ({ role: 'user', content });
const file = (name: string): string => join(fresh.ws.dir, '.rxharness', 'sessions', name);

describe('FileSessionStore after a crash cut the last line of the archive or the grants', () => {
  it('a compaction interrupted while archiving, done again, keeps every message in the archive', async () => {
    const store = new FileSessionStore(fresh.ws.dir, { home: fresh.ws.home });
    await store.append('s1', [user('one'), user('two'), user('three')]);
    // The crash: the first compaction had begun archiving the session ("one" cut mid-line), and never rewrote it.
    await writeFile(file('s1.archive.jsonl'), JSON.stringify(user('one')).slice(0, 20));

    const restarted = new FileSessionStore(fresh.ws.dir, { home: fresh.ws.home });
    await restarted.replace('s1', [user('summary')]);
    expect(await restarted.load('s1')).toEqual([user('summary')]);
    expect(await restarted.loadArchive('s1')).toEqual([user('one'), user('two'), user('three')]);
  });

  it('an "always" saved after a cut grants line is kept', async () => {
    await new FileSessionStore(fresh.ws.dir, { home: fresh.ws.home }).append('s1', [user('one')]);
    await writeFile(file('s1.grants.jsonl'), '{"toolName":"bash","subj'); // a grant cut by a crash
    const store = new FileSessionStore(fresh.ws.dir, { grantKey: 'test grant key' });
    await store.saveGrant('s1', { toolName: 'bash', subject: 'npm test' });
    expect(await store.loadGrants('s1')).toEqual([{ toolName: 'bash', subject: 'npm test' }]);
  });
});
