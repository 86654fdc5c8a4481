/**
 * A task record on Redis that is there but holds no task info (not JSON, JSON of another
 * shape, a field of the wrong type, a key of another type). `loadTaskInfo` used to answer
 * `undefined` for it, so a resume said "unknown task" where the file store refuses a corrupt
 * task file with an `UnsealedSessionError` naming it: now both refuse alike, naming the key
 * and what is wrong, and only a task with no record is unknown.
 */
import { firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { checkResumable$ } from '../../src/delegation/check-resumable.js';
import { TaskTracker } from '../../src/delegation/task-tracker.js';
import { redisBackendPerFile } from './redis-backend-per-file.js';
import { HAS_REDIS } from './redis-server.js';

const GOOD = { taskId: 't', agentName: 'alpha', description: 'd', ownerSessionId: 'conv' };

/** Each record planted as a string under the task's key, and what the refusal says of it. */
const PLANTED: readonly (readonly [string, string, string])[] = [
  ['not JSON', '{"taskId": "t", cut', 'is not JSON'],
  ['JSON null', 'null', 'is JSON but not an object (null)'],
  ['a JSON array', JSON.stringify([GOOD]), 'is JSON but not an object (an array)'],
  ['a field missing', JSON.stringify({ ...GOOD, agentName: undefined }), 'has no "agentName"'],
  ['a number as taskId', JSON.stringify({ ...GOOD, taskId: 7 }), 'has a number as its "taskId", not a string'],
  ['null as the owner', JSON.stringify({ ...GOOD, ownerSessionId: null }), 'has null as its "ownerSessionId", not a string'],
  ['an object as parentSessionId', JSON.stringify({ ...GOOD, parentSessionId: {} }), 'has an object as its "parentSessionId", not a string'],
  ['another task', JSON.stringify({ ...GOOD, taskId: 'other' }), 'names another task ("other")'],
];

describe.skipIf(!HAS_REDIS)('Redis sessions: a malformed task record', () => {
  const redisFile = redisBackendPerFile('malformedtask', 60_000);

  it.each(PLANTED)('%s is refused with an UnsealedSessionError naming the key and what is wrong', async (_, text, problem) => {
    const { redis, keys } = redisFile.backend.parts;
    const taskId = `t_${problem.length}_${text.length}`;
    const planted = text.replace('"taskId":"t"', `"taskId":"${taskId}"`);
    await redis.set(keys.taskInfo(taskId), planted);
    const expected = problem.replace('"t"', `"${taskId}"`);
    await expect(redisFile.backend.sessions.loadTaskInfo(taskId)).rejects.toMatchObject({
      name: 'UnsealedSessionError',
      code: 'SESSION_NOT_SEALED',
      sessionId: taskId,
      file: keys.taskInfo(taskId),
      what: 'task',
      problem: expected,
      message: `Task "${taskId}" was not resumed: its stored record "${keys.taskInfo(taskId)}" ${expected}, which is no task info a session store writes. It was changed, or written by something else with access to the store. Start the task anew instead of resuming it, and delete the record.`,
    });
  });

  it('a record naming the task as its own owner, and a key of another type, are refused too', async () => {
    const { redis, keys } = redisFile.backend.parts;
    await redis.set(keys.taskInfo('self'), JSON.stringify({ ...GOOD, taskId: 'self', ownerSessionId: 'self' }));
    await expect(redisFile.backend.sessions.loadTaskInfo('self')).rejects.toMatchObject({ name: 'UnsealedSessionError', problem: 'names the task as its own owner' });
    await redis.rpush(keys.taskInfo('listed'), JSON.stringify({ ...GOOD, taskId: 'listed' }));
    await expect(redisFile.backend.sessions.loadTaskInfo('listed')).rejects.toMatchObject({ name: 'UnsealedSessionError', problem: 'is a list, not a string' });
  });

  it('a task with no record is still unknown, and a whole one is loaded', async () => {
    const { sessions } = redisFile.backend;
    expect(await sessions.loadTaskInfo('never_saved')).toBeUndefined();
    await sessions.saveTaskInfo({ ...GOOD, taskId: 'saved' });
    expect(await sessions.loadTaskInfo('saved')).toEqual({ ...GOOD, taskId: 'saved' });
  });

  it('a resume of the task fails with what is wrong, not "unknown task"', async () => {
    const { redis, keys } = redisFile.backend.parts;
    await redis.set(keys.taskInfo('resumed'), '{"taskId":"resumed","agentName":"alpha"');
    const resume = firstValueFrom(checkResumable$('resumed', 'alpha', 'conv', new TaskTracker(), redisFile.backend.sessions), { defaultValue: undefined });
    await expect(resume).rejects.toMatchObject({ name: 'UnsealedSessionError', message: expect.stringContaining(`"${keys.taskInfo('resumed')}" is not JSON`) });
  });

  it('a task id (and so its key) with a line break, an ANSI escape and a huge length: quoted on one line, marked and cut', async () => {
    const { redis, keys } = redisFile.backend.parts;
    // As a model's task_id could read: a forged line, a screen-clearing escape, a megabyte more.
    const taskId = `t\nTask "t" was resumed\u001b[2J${'x'.repeat(1_000_000)}`;
    await redis.set(keys.taskInfo(taskId), 'not a record');
    const error = await Promise.resolve(redisFile.backend.sessions.loadTaskInfo(taskId)).then(
      () => undefined,
      (e: unknown) => e as Error & { sessionId: string; file: string },
    );
    expect(error).toMatchObject({ name: 'UnsealedSessionError', sessionId: taskId, file: keys.taskInfo(taskId), problem: 'is not JSON' });
    const message = error!.message;
    expect(message).not.toMatch(/[\n\r\u001b]/);
    expect(message.length).toBeLessThan(1_000);
    // JSON-quoted (`quotedClip`): the line break and the escape are escaped, the quote inside too
    expect(message).toContain('Task "t\\nTask \\"t\\" was resumed\\u001b[2Jxxx');
    expect(message).toContain(`its stored record "${keys.taskInfo('t')}\\nTask \\"t\\" was resumed\\u001b[2Jxxx`);
    expect(message).toMatch(/characters cut \.\.\.\] x+" is not JSON, which is no task info/);
  });
});
