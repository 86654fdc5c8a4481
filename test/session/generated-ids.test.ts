import { describe, expect, it } from 'vitest';
import { GENERATED_SESSION_ID, GENERATED_TASK_ID, newSessionId, newTaskId } from '../../src/session/session-id.js';

// `isOneShotTask` tells a one-shot run's task by these forms: an id the engine makes must match
// its own form and never the other's, or a one-shot task's refusal would advise --trust-session
// (or a conversation be read as a task).
describe('generated session and task ids', () => {
  it('each new id has its own form, never the other one', () => {
    const sessions = Array.from({ length: 1000 }, newSessionId);
    const tasks = Array.from({ length: 1000 }, newTaskId);
    expect(sessions.every((id) => GENERATED_SESSION_ID.test(id) && !GENERATED_TASK_ID.test(id))).toBe(true);
    expect(tasks.every((id) => GENERATED_TASK_ID.test(id) && !GENERATED_SESSION_ID.test(id))).toBe(true);
    expect(new Set([...sessions, ...tasks]).size).toBe(2000);
  });

  it('a name a user gives a conversation is neither form', () => {
    for (const id of ['my-talk', 'task_1', 'ses_1', 'task_3B241101-E2BB-4255-8CAF-4136C566A962', ` ${newTaskId()}`, `${newTaskId()}\n`]) {
      expect([GENERATED_SESSION_ID.test(id), GENERATED_TASK_ID.test(id)]).toEqual([false, false]);
    }
  });
});
