import type { RunOrigin, SharedRunRecord } from '../runs/shared-runs.js';
import { isPlainObject, storedObject } from './stored-object.js';

/** A shared run record as Redis keeps it: with the instance that owns the run. */
export interface OwnedRecord extends SharedRunRecord {
  /** The backend instance running it (absent in records written before owners were kept). */
  readonly owner?: string;
}

const STATES = new Set(['running', 'done', 'failed', 'cancelled']);
/** The origins this version knows (`RunOrigin`). */
const ORIGINS: ReadonlySet<unknown> = new Set<RunOrigin>(['ag-ui']);

/**
 * A record read from Redis (JSON text, or a message's already parsed object), or undefined
 * when it is not one: whatever is stored there is not trusted to have the shape we wrote, and
 * a bad entry is skipped rather than failing every engine that loads it. An `origin` this
 * version does not know (a newer one's, or planted) is dropped, the record kept: the run is then
 * not an AG-UI run here, which no AG-UI request continues or cancels, but still listed,
 * attachable and answerable.
 *
 * @example
 * ```ts
 * parseRunRecord('{"info":{"runId":"run_1",...},"pending":[]}'); // the record
 * parseRunRecord('{"tool_calls":"ab"}'); // undefined
 * ```
 */
export function parseRunRecord(stored: unknown): OwnedRecord | undefined {
  const value = storedObject(stored);
  if (!value || !isPlainObject(value['info']) || !Array.isArray(value['pending'])) return undefined;
  const info = value['info'];
  const fine =
    typeof info['runId'] === 'string' &&
    typeof info['sessionId'] === 'string' &&
    typeof info['agentName'] === 'string' &&
    STATES.has(info['state'] as string) &&
    typeof info['startedAt'] === 'number' &&
    (info['endedAt'] === undefined || typeof info['endedAt'] === 'number') &&
    value['pending'].every(isPendingApproval) &&
    (value['retainUntil'] === undefined || typeof value['retainUntil'] === 'number') &&
    (value['owner'] === undefined || typeof value['owner'] === 'string');
  if (!fine) return undefined;
  if (value['origin'] === undefined || ORIGINS.has(value['origin'])) return value as unknown as OwnedRecord;
  const { origin: _unknown, ...known } = value;
  return known as unknown as OwnedRecord;
}

/** A waiting approval as a record lists it: its ids and names as strings. */
function isPendingApproval(item: unknown): boolean {
  if (!isPlainObject(item)) return false;
  const strings = ['approvalId', 'callId', 'toolName', 'agentName'].every((key) => typeof item[key] === 'string');
  return strings && (item['taskId'] === undefined || typeof item['taskId'] === 'string');
}
