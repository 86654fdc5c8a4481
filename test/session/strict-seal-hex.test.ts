/**
 * A seal (`mac`) is checked as exactly the hex the store writes: `Buffer.from(hex, 'hex')`
 * stops at the first non-hex character and drops an odd last digit, so a valid MAC with
 * anything after it used to decode to the valid MAC and pass. Each sealed kind of file (a
 * grant line, a message line, a task file) is tried with such an edited MAC: refused as any
 * wrong seal, while the untouched file still passes.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { makeWorkspace, type TestWorkspace } from '../support/tool-context.js';

const KEY = 'the user key, kept outside the workspace';
const TASK = { taskId: 't1', agentName: 'helper', description: 'look', ownerSessionId: 'notes' };

let ws: TestWorkspace;
beforeEach(async () => {
  ws = await makeWorkspace();
});
afterEach(async () => {
  await ws.cleanup();
});

const store = (): FileSessionStore => new FileSessionStore(ws.dir, { grantKey: KEY });
const at = (name: string): string => join(ws.dir, '.rxharness', 'sessions', name);

/** The edits that leave `Buffer.from(mac, 'hex')` as it was: junk after it, an odd last digit, upper case. */
const EDITS: readonly [string, (mac: string) => string][] = [
  ['trailing junk', (mac) => `${mac}zz`],
  ['a trailing space', (mac) => `${mac} `],
  ['an odd extra digit', (mac) => `${mac}0`],
  ['upper case', (mac) => mac.toUpperCase()],
];

/** Rewrites the `mac` of every JSON line of `file` with `edit`. */
async function editMacs(file: string, edit: (mac: string) => string): Promise<void> {
  const text = await readFile(file, 'utf8');
  const edited = text
    .split('\n')
    .map((line) => {
      if (line === '') return line;
      const value = JSON.parse(line) as { mac: string };
      expect(value.mac).toMatch(/^[0-9a-f]{64}$/);
      return JSON.stringify({ ...value, mac: edit(value.mac) });
    })
    .join('\n');
  await writeFile(file, edited);
}

describe('a seal with its valid MAC followed by anything is no seal', () => {
  it.each(EDITS)('a grant line (%s): no grant', async (_, edit) => {
    await store().saveGrant('notes', { toolName: 'bash', subject: 'ls' });
    expect(await store().loadGrants('notes')).toEqual([{ toolName: 'bash', subject: 'ls' }]);
    await editMacs(at('notes.grants.jsonl'), edit);
    expect(await store().loadGrants('notes')).toEqual([{ notSigned: true }]);
  });

  it.each(EDITS)('a message line (%s): the session is not loaded', async (_, edit) => {
    await store().append('notes', [{ role: 'user', content: 'hi' }]);
    expect(await store().load('notes')).toEqual([{ role: 'user', content: 'hi' }]);
    await editMacs(at('notes.jsonl'), edit);
    await expect(store().load('notes')).rejects.toMatchObject({ name: 'UnsealedSessionError', code: 'SESSION_NOT_SEALED' });
  });

  it.each(EDITS)('a task file (%s): not resumed', async (_, edit) => {
    await store().saveTaskInfo(TASK);
    expect(await store().loadTaskInfo('t1')).toEqual(TASK);
    await editMacs(at('t1.task.json'), edit);
    await expect(store().loadTaskInfo('t1')).rejects.toMatchObject({ name: 'UnsealedSessionError' });
  });
});
