/**
 * An engine's copy of the shared runs' records (`RedisSharedRuns`): its load from the runs
 * hash, its pruning past retention, and the running runs of other instances in it.
 *
 * @module
 */
import type { Redis } from 'ioredis';
import { loadHash } from './load-hash.js';
import type { RedisKeys } from './redis-keys.js';
import { parseRunRecord, type OwnedRecord } from './run-record.js';
import type { RunsChannelState } from './runs-channel.js';

/**
 * Reads the records Redis keeps into the copy, those past their retention (and those that are
 * no record) left out: as the engine starts, and again each time the channel is subscribed
 * again after a drop (what was published meanwhile was never heard). A record a message
 * changed while the read was on its way stays as the message left it: a record's change and
 * its message go through Redis together, so the message is as new as the read or newer. Our
 * own runs stay as we keep them (as a `put` would); another's run the hash no longer holds,
 * unchanged meanwhile, is forgotten (its `forget` went unheard). Each change is told (`changed`).
 *
 * @internal
 */
export async function loadRunRecords(state: Pick<RunsChannelState, 'redis' | 'keys' | 'records' | 'own' | 'instanceId' | 'changed'>): Promise<void> {
  const { records } = state;
  const before = new Map(records);
  const stored = await loadHash(state.redis, state.keys.runs, "the runs other engines started are not listed here, nor are this engine's runs shared");
  const now = Date.now();
  const unchanged = (runId: string): boolean => !state.own.has(runId) && records.get(runId) === before.get(runId);
  const held = new Set<string>();
  for (const text of Object.values(stored)) {
    const record = parseRunRecord(text);
    if (!record || (record.retainUntil !== undefined && record.retainUntil <= now)) continue;
    const runId = record.info.runId;
    held.add(runId);
    if (record.owner === state.instanceId || !unchanged(runId) || sameRecord(records.get(runId), record)) continue;
    records.set(runId, record);
    state.changed(runId);
  }
  for (const runId of before.keys()) {
    if (held.has(runId) || !unchanged(runId)) continue;
    records.delete(runId);
    state.changed(runId);
  }
}

/** Whether the copy holds this record already (a reload tells no watcher of it). */
function sameRecord(held: OwnedRecord | undefined, read: OwnedRecord): boolean {
  return held !== undefined && JSON.stringify(held) === JSON.stringify(read);
}

/** Forgets the records past their retention, in `records` and in Redis (a hash field does not expire by itself). @internal */
export function pruneRunRecords(redis: Redis, keys: RedisKeys, records: Map<string, OwnedRecord>): void {
  const now = Date.now();
  const gone = [...records.values()].filter((r) => r.retainUntil !== undefined && r.retainUntil <= now).map((r) => r.info.runId);
  if (gone.length === 0) return;
  for (const runId of gone) records.delete(runId);
  redis.hdel(keys.runs, ...gone).catch(() => undefined); // another engine may have pruned them first
}

/** The running runs of instances other than `instanceId`, by owner. @internal */
export function runningByOwner(records: ReadonlyMap<string, OwnedRecord>, instanceId: string): Map<string, string[]> {
  const byOwner = new Map<string, string[]>();
  for (const record of records.values()) {
    if (record.info.state !== 'running' || record.owner === undefined || record.owner === instanceId) continue;
    byOwner.set(record.owner, [...(byOwner.get(record.owner) ?? []), record.info.runId]);
  }
  return byOwner;
}
