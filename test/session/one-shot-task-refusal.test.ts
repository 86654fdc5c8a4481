/**
 * A one-shot run's task session (a task delegated by a run without a `sessionId`) is sealed
 * for a lifetime kept only in the process that ran it: its transcript, kept aside and put back
 * after the engine deleted it (or read by a later process), loads nowhere. The refusal says
 * so and that the files can be removed, not to use `--trust-session` (no one names such a
 * session), and `trustUnsealed` naming it refuses it the same way, sealing nothing.
 */
import { randomUUID } from 'node:crypto';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ephemeralLifetimes } from '../../src/session/ephemeral-lifetimes.js';
import { UnsealedSessionError } from '../../src/session/unsealed-session-error.js';
import { workspaceHomePerTest } from '../support/workspace-home-per-test.js';
import { changedTaskOfConversation, oneShotKit, said } from './one-shot-kit.js';

const ws = workspaceHomePerTest();
const { byFile } = oneShotKit(ws);

/**
 * A task session of the run `owner` as the engine writes and deletes one (`owner` noted as a
 * one-shot run's while it lasts), its files copied aside before the delete and put back after
 * it. Answers the task's id and the transcript's path.
 */
async function putBackTask(owner: string, oneShot: boolean): Promise<{ taskId: string; file: string }> {
  const store = byFile();
  const taskId = `task_${randomUUID()}`;
  if (oneShot) ephemeralLifetimes.open(owner);
  await store.saveTaskInfo({ taskId, agentName: 'beta', description: 'scan', ownerSessionId: owner });
  await store.append(taskId, said);
  const aside = await mkdtemp(join(tmpdir(), 'rxharness-aside-'));
  onTestFinished(() => rm(aside, { recursive: true, force: true }));
  for (const name of [`${taskId}.jsonl`, `${taskId}.task.json`]) await cp(join(store.dir, name), join(aside, name));
  if (oneShot) ephemeralLifetimes.close(owner);
  await store.delete(taskId);
  for (const name of [`${taskId}.jsonl`, `${taskId}.task.json`]) await cp(join(aside, name), join(store.dir, name));
  return { taskId, file: join(store.dir, `${taskId}.jsonl`) };
}

describe("a one-shot run's task session put back after its delete", () => {
  it('is refused saying it loads only in the process that ran it and can be removed, not advising --trust-session', async () => {
    const { taskId, file } = await putBackTask(`ses_${randomUUID()}`, true);
    const error = await byFile().load(taskId).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(UnsealedSessionError);
    expect((error as UnsealedSessionError).what).toBe('one-shot-task');
    const { message } = error as UnsealedSessionError;
    expect(message).toContain(`Session "${taskId}" was not loaded: ${file} holds 2 lines not sealed for it now`);
    expect(message).toContain('a task delegated by a one-shot run (a run without a session id');
    expect(message).toContain('sealed for a lifetime kept only in the process that ran it: they load only there');
    expect(message).toContain("remove the task's files from the folder");
    expect(message).toContain('--trust-session would not take them');
    expect(message).not.toContain('continue it once with --trust-session');
  });

  it('is refused by trustUnsealed naming it too, and nothing is sealed: the message and the behaviour agree', async () => {
    const { taskId, file } = await putBackTask(`ses_${randomUUID()}`, true);
    const before = await readFile(file, 'utf8');
    await expect(byFile([taskId]).load(taskId)).rejects.toMatchObject({ name: 'UnsealedSessionError', what: 'one-shot-task' });
    expect(await readFile(file, 'utf8')).toBe(before);
    await expect(byFile().load(taskId)).rejects.toMatchObject({ what: 'one-shot-task' });
  });

  it("a changed task transcript of a conversation with a transcript (an id of the one-shot form) keeps the usual advice", async () => {
    // An id of the form a one-shot run's has, but this conversation stored its transcript.
    const taskId = await changedTaskOfConversation(byFile());
    const error = await byFile().load(taskId).then(() => undefined, (e: unknown) => e as UnsealedSessionError);
    expect(error?.what).toBe('history');
    expect(error?.message).toContain('continue it once with --trust-session');
  });
});
