/**
 * Deleting a conversation revokes its "always" approvals even when the store cannot delete
 * it: an attacker who plants a folder under one of the session's file names makes the
 * store's delete fail (`NotRegularFileError`), and must not thereby keep the deleted
 * conversation's grants alive for a later conversation of the same id.
 */
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import type { ApprovalHandler } from '../../src/permission/approval.js';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';
import type { SessionStore } from '../../src/session/session-store.js';
import { toolContextPerTest } from '../support/tool-context-per-test.js';

const fresh = toolContextPerTest();

/** Calls bash on every prompt, then answers once it read the result. */
const bashModel = (): ScriptedModel =>
  new ScriptedModel((request) => (request.messages.at(-1)?.role === 'tool' ? { text: 'done' } : { toolCalls: [{ name: 'bash', args: { command: 'echo hi' } }] }));

describe('engine.sessions.delete(id) when the store fails to delete', () => {
  it('a folder planted under the archive name: the delete says so, and the grants are gone from memory and disk', async () => {
    const approve = vi.fn<ApprovalHandler>(() => ({ decision: 'always' }));
    const sessions = new FileSessionStore(fresh.ws.dir, { grantKey: 'test grant key' });
    const engine = new HarnessEngine({ model: bashModel(), workspace: fresh.ws.dir, homeDir: fresh.ws.home, approve, sessions });
    await engine.call('first', { sessionId: 'notes' });
    const dir = join(fresh.ws.dir, '.rxharness', 'sessions');
    expect(existsSync(join(dir, 'notes.grants.jsonl'))).toBe(true);
    const folder = join(dir, 'notes.archive.jsonl');
    await mkdir(folder);
    await writeFile(join(folder, 'kept.txt'), 'planted\n');

    await expect(engine.sessions.delete!('notes')).rejects.toMatchObject({ name: 'NotRegularFileError', file: folder, kind: 'directory' });
    expect(existsSync(join(dir, 'notes.grants.jsonl'))).toBe(false);
    expect(existsSync(join(folder, 'kept.txt'))).toBe(true); // not the store's to judge

    // The user removes the folder as the error says, and starts a new conversation of the id.
    await rm(folder, { recursive: true });
    const run = await engine.call('a new conversation', { sessionId: 'notes' });
    expect(run.abnormal).toBe(false);
    expect(approve).toHaveBeenCalledTimes(2); // asked again: nothing was inherited
    await engine.close();
  });

  it('a store whose delete throws synchronously: the grants are revoked, and the error reaches the caller', async () => {
    const approve = vi.fn<ApprovalHandler>(() => ({ decision: 'always' }));
    const store = new MemorySessionStore();
    // A store that keeps no grants: only the engine's memory holds them.
    const bare: SessionStore = {
      load: (id) => store.load(id),
      append: (id, messages) => store.append(id, messages),
      delete: () => {
        throw new Error('read-only store');
      },
    };
    const engine = new HarnessEngine({ model: bashModel(), workspace: fresh.ws.dir, homeDir: fresh.ws.home, approve, sessions: bare });
    await engine.call('first', { sessionId: 'notes' });
    await engine.call('same conversation', { sessionId: 'notes' });
    expect(approve).toHaveBeenCalledTimes(1);
    await expect(engine.sessions.delete!('notes')).rejects.toThrow('read-only store');
    await engine.call('after the failed delete', { sessionId: 'notes' });
    expect(approve).toHaveBeenCalledTimes(2);
    await engine.close();
  });
});
