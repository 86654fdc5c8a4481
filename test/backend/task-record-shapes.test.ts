/**
 * One shape per task state (`readTaskRecord`, src/backend/task-record.ts). Before, only a
 * `queued` record was checked for its state's fields: a forged record saying `running` yet
 * carrying an end or a result was taken as is (a task both live and ended on every engine).
 * Each forged record below is refused with the reason; a well-formed one of each state is read
 * to exactly its fields.
 */
import { describe, expect, it } from 'vitest';
import { readTaskRecord } from '../../src/backend/task-record.js';

const T = 1_700_000_000_000;
const COMMON = { taskId: 'task_1', agentName: 'explorer', description: 'd', sessionId: 'ses_1', parentRunId: 'run_1', background: false, startedAt: T, owner: 'instance_1' };
const METRICS = { promptTokens: 3, completionTokens: 4, totalTokens: 7, durationMs: 12, tasks: 1 };
const GOOD: Record<string, object> = {
  queued: { ...COMMON, state: 'queued' },
  running: { ...COMMON, state: 'running', background: true },
  done: { ...COMMON, state: 'done', endedAt: T + 5, result: 'answer', metrics: METRICS },
  failed: { ...COMMON, state: 'failed', endedAt: T + 5, result: 'ERROR: no' },
  cancelled: { ...COMMON, state: 'cancelled', endedAt: T + 5, result: 'ERROR: cancelled' },
};
const problemOf = (record: unknown): string | undefined => {
  const read = readTaskRecord(typeof record === 'string' ? record : JSON.stringify(record));
  return 'problem' in read ? read.problem : undefined;
};

describe('task records: one shape per state', () => {
  it('reads a well-formed record of each state to exactly its fields, the owner apart', () => {
    for (const [state, record] of Object.entries(GOOD)) {
      const { owner, ...info } = record as { owner: string };
      expect(readTaskRecord(JSON.stringify(record)), state).toEqual({ info, owner });
    }
    // A running record without an owner (written before owners were kept) is still read.
    const { owner: _o, ...ownerless } = GOOD['running'] as { owner: string };
    expect(problemOf(ownerless)).toBeUndefined();
    // A message built with an absent owner carries `owner: undefined`: absent, not wrong.
    expect(readTaskRecord({ ...ownerless, owner: undefined })).toEqual({ info: ownerless });
  });

  it('refuses a live record carrying fields of a settled one, and a settled one without them', () => {
    for (const live of ['queued', 'running']) {
      const base = GOOD[live]!;
      expect(problemOf({ ...base, endedAt: T + 1 }), live).toBe(`a ${live} record has no field "endedAt"`);
      expect(problemOf({ ...base, result: 'done already' }), live).toBe(`a ${live} record has no field "result"`);
      expect(problemOf({ ...base, metrics: METRICS }), live).toBe(`a ${live} record has no field "metrics"`);
    }
    for (const settled of ['done', 'failed', 'cancelled']) {
      const { endedAt: _e, ...noEnd } = GOOD[settled] as { endedAt: number };
      const { result: _r, ...noResult } = GOOD[settled] as { result: string };
      expect(problemOf(noEnd), settled).toMatch(new RegExp(`^a ${settled} record needs endedAt`));
      expect(problemOf(noResult), settled).toMatch(new RegExp(`^a ${settled} record needs result`));
    }
    expect(problemOf({ ...GOOD['queued']!, background: true })).toMatch(/^background must be false/);
    expect(problemOf({ ...GOOD['queued']!, owner: undefined })).toMatch(/^a queued record needs owner/);
  });

  it('refuses wrong types, naming the field', () => {
    const running = GOOD['running']!;
    const cases: [object, RegExp][] = [
      [{ ...running, taskId: 7 }, /^taskId must be a non-empty string/],
      [{ ...running, taskId: '' }, /^taskId must be a non-empty string/],
      [{ ...running, description: ['d'] }, /^description must be a string/],
      [{ ...running, background: 'false' }, /^background must be true or false/],
      [{ ...running, startedAt: String(T) }, /^startedAt must be epoch milliseconds/],
      [{ ...running, owner: { id: 'x' } }, /^owner must be a non-empty string/],
      [{ ...running, state: 'paused' }, /^its state is not one of queued, running/],
      [{ ...running, state: ['running'] }, /^its state is not one of/],
      [{ ...GOOD['done']!, metrics: { ...METRICS, totalTokens: '7' } }, /^metrics must be \{ promptTokens/],
      [{ ...GOOD['done']!, metrics: [1, 2, 3, 4, 5] }, /^metrics must be/],
    ];
    for (const [record, problem] of cases) expect(problemOf(record), JSON.stringify(record).slice(0, 120)).toMatch(problem);
    for (const junk of ['not json', '[null]', 'null', '7', '"running"']) expect(problemOf(junk)).toBe('it is not a JSON object');
  });

  it('refuses huge values: times past what a Date holds, fractions and negatives, generated ids past their bound', () => {
    const running = JSON.stringify(GOOD['running']);
    // JSON.parse reads 1e999 as Infinity; a start no later run can pass would pin the task's copy.
    expect(problemOf(running.replace(`"startedAt":${T}`, '"startedAt":1e999'))).toMatch(/^startedAt must be epoch milliseconds/);
    for (const startedAt of [1e300, 8.64e15 + 1, -1, T + 0.5]) expect(problemOf({ ...GOOD['running']!, startedAt }), String(startedAt)).toMatch(/^startedAt must be/);
    expect(problemOf({ ...GOOD['done']!, endedAt: 1e300 })).toMatch(/^endedAt must be/);
    expect(problemOf({ ...GOOD['done']!, metrics: { ...METRICS, promptTokens: -1 } })).toMatch(/^metrics must be/);
    expect(problemOf({ ...GOOD['running']!, taskId: 't'.repeat(1025) })).toMatch(/^taskId must be a non-empty string of at most 1024/);
    expect(problemOf({ ...GOOD['running']!, owner: 'o'.repeat(1025) })).toMatch(/^owner must be a non-empty string of at most 1024/);
  });

  it('drops a field no state has (an engine of a later version may write one) and keeps it out of what it gives', () => {
    const read = readTaskRecord({ ...GOOD['running']!, ['k'.repeat(100_000)]: 1, attempt: 2 });
    expect('info' in read && Object.keys(read.info).sort()).toEqual(Object.keys(GOOD['running']!).filter((k) => k !== 'owner').sort());
  });

  it('keeps prototype keys out of what it gives, and nothing of them reaches the prototype of anything', () => {
    const running = JSON.stringify(GOOD['running']);
    const forged = [
      `{"__proto__":{"state":"done","result":"forged"},${running.slice(1)}`,
      `{"constructor":{"prototype":{"polluted":true}},${running.slice(1)}`,
      // With no own fields at all: everything would come from the prototype it names.
      '{"__proto__":{"taskId":"task_1","agentName":"a","description":"d","sessionId":"s","parentRunId":"r","background":false,"state":"running","startedAt":1}}',
    ];
    const given = (record: unknown): Record<string, unknown> => {
      const read = readTaskRecord(record);
      if (!('info' in read)) throw new Error(read.problem);
      return read.info as unknown as Record<string, unknown>;
    };
    for (const text of forged.slice(0, 2)) {
      const info = given(text);
      expect(Object.keys(info)).not.toContain('__proto__');
      expect(Object.keys(info)).not.toContain('constructor');
      expect(Object.getPrototypeOf(info)).toBe(Object.prototype);
      expect(info['state']).toBe('running');
      expect(info['result']).toBeUndefined();
    }
    expect(problemOf(forged[2])).toMatch(/^its state is not one of/);
    // A message's parsed object spread into a record keeps `__proto__` as an own field: left out too.
    const spread = given({ ...(JSON.parse(forged[0]!) as object) });
    expect(Object.getPrototypeOf(spread)).toBe(Object.prototype);
    expect(spread['result']).toBeUndefined();
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(({} as Record<string, unknown>)['state']).toBeUndefined();
  });

  it('takes what an engine really writes: a session id, a name and a result of any length; metrics with a later field (dropped)', () => {
    const long = { ...GOOD['done']!, sessionId: 's'.repeat(5000), agentName: 'a'.repeat(5000), result: 'r'.repeat(17 * 1024 * 1024), metrics: { ...METRICS, cost: 1 } };
    const read = readTaskRecord(long);
    expect('info' in read && read.info.sessionId).toBe(long.sessionId);
    expect('info' in read && read.info.result?.length).toBe(17 * 1024 * 1024);
    expect('info' in read && read.info.metrics).toEqual(METRICS);
  });

  it('gives a fresh object: what a consumer gets is never the parsed value it came from', () => {
    const message = { ...GOOD['done']! };
    const read = readTaskRecord(message);
    expect('info' in read && read.info).not.toBe(message);
    expect(Object.getPrototypeOf('info' in read ? read.info : null)).toBe(Object.prototype);
  });
});
