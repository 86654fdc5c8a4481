/**
 * Only a task file whose seal checks says a task session is a conversation's: a file planted
 * beside a one-shot run's task transcript, naming a conversation that stored its transcript,
 * no longer makes the refusal advise `--trust-session` (it is no task file: the task stays a
 * one-shot run's). A sealed one still does, and a one-shot run's own task file put back (whose
 * seal check throws its own refusal) leaves the history's refusal as a one-shot task's.
 */
import { randomUUID } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { workspaceHomePerTest } from '../support/workspace-home-per-test.js';
import { changedTaskOfConversation, oneShotKit, refusal, said } from './one-shot-kit.js';

const ws = workspaceHomePerTest();
const { byFile, putBackOneShotTask } = oneShotKit(ws);
const ONE_SHOT_ADVICE = 'its task file names such a run, is gone, or is not sealed';
const TRUST_ADVICE = 'continue it once with --trust-session';

describe('the wording of a task session\'s refusal, by its task file\'s seal', () => {
  it('a planted task file naming a conversation with a transcript leaves a one-shot task a one-shot task\'s (no --trust-session advice, nothing sealed)', async () => {
    const { taskId, dir } = await putBackOneShotTask(['jsonl']);
    const real = `ses_${randomUUID()}`;
    await byFile().append(real, said); // a conversation that stored its transcript
    await writeFile(join(dir, `${taskId}.task.json`), JSON.stringify({ taskId, agentName: 'beta', description: 'scan', ownerSessionId: real }));
    const error = await refusal(byFile().load(taskId));
    expect(error?.what).toBe('one-shot-task');
    expect(error?.message).toContain(ONE_SHOT_ADVICE);
    expect(error?.message).not.toContain(TRUST_ADVICE);
    const file = join(dir, `${taskId}.jsonl`);
    const before = await readFile(file, 'utf8');
    await expect(byFile([taskId]).load(taskId)).rejects.toMatchObject({ what: 'one-shot-task' });
    expect(await readFile(file, 'utf8')).toBe(before);
  });

  it('a sealed task file of a conversation with a transcript keeps the --trust-session advice, and --trust-session takes the lines', async () => {
    const taskId = await changedTaskOfConversation(byFile());
    const error = await refusal(byFile().load(taskId));
    expect(error?.what).toBe('history');
    expect(error?.message).toContain(TRUST_ADVICE);
    expect((await byFile([taskId]).load(taskId)).map((m) => m.content)).toEqual(['scan the repo', 'DONE']);
  });

  it("a one-shot run's own task file put back: its transcript is refused as a one-shot task's, not with the task file's refusal", async () => {
    const { taskId } = await putBackOneShotTask(['jsonl', 'task.json']);
    await expect(byFile().loadTaskInfo(taskId)).rejects.toMatchObject({ what: 'one-shot-task-file' });
    const error = await refusal(byFile().load(taskId));
    expect(error?.what).toBe('one-shot-task');
    expect(error?.file).toMatch(/\.jsonl$/);
    expect(error?.message).not.toContain(TRUST_ADVICE);
    await expect(byFile([taskId]).load(taskId)).rejects.toMatchObject({ what: 'one-shot-task' });
  });
});
