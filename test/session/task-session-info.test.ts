import { describe, expect, it } from 'vitest';
import { taskInfoOf } from '../../src/backend/redis-task-records.js';
import { taskSessionInfoOf } from '../../src/session/task-session-info.js';

const info = { taskId: 't1', agentName: 'alpha', description: 'd', ownerSessionId: 's1' };

describe('taskSessionInfoOf: the one check of a stored task record', () => {
  it('keeps the known fields only, so a planted record carries nothing else in', () => {
    expect(taskSessionInfoOf({ ...info, parentSessionId: 'p', extra: 'planted', mac: 'x' })).toEqual({ ...info, parentSessionId: 'p' });
    expect(taskSessionInfoOf(info)).toEqual(info);
  });

  it('refuses anything of another shape', () => {
    for (const bad of [null, 'text', 7, [], { ...info, taskId: 1 }, { ...info, ownerSessionId: undefined }, { ...info, parentSessionId: 5 }]) {
      expect(taskSessionInfoOf(bad), JSON.stringify(bad)).toBeUndefined();
    }
  });

  it('is what the Redis store reads its records with', () => {
    expect(taskInfoOf(JSON.stringify({ ...info, parentSessionId: 5 }))).toBeUndefined();
    expect(taskInfoOf(JSON.stringify({ ...info, extra: 1 }))).toEqual(info);
    expect(taskInfoOf('{not json')).toBeUndefined();
  });
});
