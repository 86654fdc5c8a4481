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

/** Reads the records Redis keeps into `records`, those past their retention (and those that are no record) left out. @internal */
export async function loadRunRecords(redis: Redis, keys: RedisKeys, records: Map<string, OwnedRecord>): Promise<void> {
  const now = Date.now();
  for (const text of Object.values(await loadHash(redis, keys.runs, "the runs other engines started are not listed here, nor are this engine's runs shared"))) {
    const record = parseRunRecord(text);
    if (record && (record.retainUntil === undefined || record.retainUntil > now)) records.set(record.info.runId, record);
  }
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
