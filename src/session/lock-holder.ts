import { randomUUID } from 'node:crypto';
import { readFileSync, readlinkSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { errnoOf } from '../errors/errno-of.js';

/**
 * What a session lock file (`session-lock-file.ts`) holds: who claimed the session, and
 * enough about its process to tell, on the same machine, whether that process still lives.
 * `processStart` (the start time in /proc, Linux) tells a live holder from a later process
 * that was given the same pid; `pidNamespace` tells processes of another container sharing
 * the folder (their pids are not ours to check) from this one's. `token` makes each lock's
 * text unique, so a release removes only its own lock.
 */
export interface LockHolder {
  readonly owner: string;
  readonly pid: number;
  readonly host: string;
  readonly startedAt: number;
  readonly processStart?: string;
  readonly pidNamespace?: string;
  readonly token: string;
}

/** Whether the holder's process lives: `unverified` when it is not ours to check (another machine or container). */
export type HolderState = 'alive' | 'dead' | 'unverified';

/** This process as a lock names it (read once: none of it changes while the process lives). */
let self: Omit<LockHolder, 'owner' | 'startedAt' | 'token'> | undefined;

function thisProcess(): Omit<LockHolder, 'owner' | 'startedAt' | 'token'> {
  self ??= {
    pid: process.pid,
    host: hostname(),
    ...optional('processStart', () => startTime(readFileSync('/proc/self/stat', 'utf8'))),
    ...optional('pidNamespace', () => readlinkSync('/proc/self/ns/pid')),
  };
  return self;
}

/** The text of a new lock held by `owner` in this process (one JSON line). */
export function lockText(owner: string): string {
  const holder: LockHolder = { owner, ...thisProcess(), startedAt: Date.now(), token: randomUUID() };
  return `${JSON.stringify(holder)}\n`;
}

/** The holder a lock's text names; `undefined` for any text this module did not write (empty, cut, planted). */
export function parseHolder(text: string): LockHolder | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  // Shown in the refusal's message: one short line of text, nothing a terminal would act on.
  const strings = ['owner', 'host', 'token'].every((key) => typeof v[key] === 'string' && /^[^\p{Cc}]{1,200}$/u.test(v[key]));
  const optionals = ['processStart', 'pidNamespace'].every((key) => v[key] === undefined || typeof v[key] === 'string');
  const numbers = Number.isSafeInteger(v.pid) && (v.pid as number) > 0 && typeof v.startedAt === 'number';
  return strings && optionals && numbers ? (v as unknown as LockHolder) : undefined;
}

/**
 * Whether the lock's holder still runs. Only a process of this machine and pid namespace
 * can be checked: gone (`kill(pid, 0)` answers ESRCH), or its pid now another process's
 * (its start time differs from the recorded one), it is `dead`. Without a recorded start
 * time (no /proc) a live pid is `unverified`: it may be another program's by now.
 */
export async function holderState(holder: LockHolder): Promise<HolderState> {
  const me = thisProcess();
  if (holder.host !== me.host || holder.pidNamespace !== me.pidNamespace) return 'unverified';
  try {
    process.kill(holder.pid, 0);
  } catch (e) {
    const code = errnoOf(e);
    if (code === 'ESRCH') return 'dead';
    if (code !== 'EPERM') return 'unverified'; // EPERM: alive, another user's
  }
  if (holder.processStart === undefined || me.processStart === undefined) return 'unverified';
  try {
    return startTime(await readFile(`/proc/${holder.pid}/stat`, 'utf8')) === holder.processStart ? 'alive' : 'dead';
  } catch (e) {
    return errnoOf(e) === 'ENOENT' ? 'dead' : 'unverified'; // ENOENT: it ended just now
  }
}

/** Field 22 of /proc/<pid>/stat, the start time in clock ticks since boot (counted after the name, which may hold spaces). */
function startTime(stat: string): string {
  const field = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  if (field === undefined || !/^\d+$/.test(field)) throw new Error('no start time');
  return field;
}

function optional<K extends string>(key: K, read: () => string): Partial<Record<K, string>> {
  try {
    return { [key]: read() } as Record<K, string>;
  } catch {
    return {};
  }
}
