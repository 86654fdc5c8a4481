/**
 * Every session file is opened with O_NONBLOCK (so that a planted FIFO cannot hang a read):
 * for the regular files the store itself writes, that must change nothing. Large contents,
 * many appends, a compaction and re-reading from a new store all come back whole.
 */
import { constants } from 'node:fs';
import { readFile, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openConfined, writeConfinedFile } from '../../src/session/confined-file.js';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { workspaceHomePerTest } from '../support/workspace-home-per-test.js';
import { assistant, user } from './session-workspace-kit.js';

const KEY = 'test grant key';
const ws = workspaceHomePerTest();

describe('session files opened non-blocking', () => {
  it('a conversation of large messages is written and read back whole, by this store and a new one', async () => {
    // Several megabytes, far above a pipe's buffer: a short read or write would show here.
    const big = (seed: string) => seed.repeat(600_000);
    const messages = [user(big('a')), assistant(big('é')), user(big('z'))];
    const store = new FileSessionStore(ws.dir, { grantKey: KEY });
    for (const message of messages) await store.append('s1', [message]);
    expect(await store.load('s1')).toEqual(messages);
    expect(await new FileSessionStore(ws.dir, { grantKey: KEY }).load('s1')).toEqual(messages);
  });

  it('a compaction archives and rewrites, the archive read back whole; grants and task info round-trip', async () => {
    const store = new FileSessionStore(ws.dir, { grantKey: KEY });
    const turns = Array.from({ length: 50 }, (_, i) => [user(`question ${i} ${'x'.repeat(10_000)}`), assistant(`answer ${i}`)]).flat();
    await store.append('s1', turns);
    await store.replace('s1', [user('summary')]);
    await store.append('s1', [assistant('after')]);
    expect(await store.load('s1')).toEqual([user('summary'), assistant('after')]);
    expect(await store.loadArchive('s1')).toEqual([...turns, assistant('after')]);
    await store.saveGrant('s1', { toolName: 'bash', subject: 'npm test' });
    expect(await store.loadGrants('s1')).toEqual([{ toolName: 'bash', subject: 'npm test' }]);
    const info = { taskId: 't1', agentName: 'beta', description: 'look', ownerSessionId: 's1' };
    await store.saveTaskInfo(info);
    expect(await new FileSessionStore(ws.dir, { grantKey: KEY }).loadTaskInfo('t1')).toEqual(info);
    expect((await store.list()).map((l) => l.sessionId)).toEqual(['s1']);
  });

  it('openConfined reads and writes a regular file exactly as a blocking open would', async () => {
    const root = { path: await realpath(ws.dir), label: 'the workspace' };
    const file = join(root.path, 'data.bin');
    // ASCII only: writeConfinedFile writes text as UTF-8.
    const bytes = Buffer.alloc(3 * 1024 * 1024 + 7);
    for (let i = 0; i < bytes.length; i++) bytes[i] = 1 + ((i * 31) % 126);
    await writeConfinedFile(root, file, bytes.toString('ascii'));
    const reader = await openConfined(root, file, constants.O_RDONLY);
    try {
      // Compared as a whole: an element-by-element diff of megabytes would take minutes.
      expect((await reader.readFile()).equals(bytes)).toBe(true);
    } finally {
      await reader.close();
    }
    const appender = await openConfined(root, file, constants.O_WRONLY | constants.O_APPEND);
    try {
      await appender.appendFile(bytes);
    } finally {
      await appender.close();
    }
    expect((await readFile(file)).equals(Buffer.concat([bytes, bytes]))).toBe(true);
  });
});
