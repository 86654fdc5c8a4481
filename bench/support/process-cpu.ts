/**
 * CPU time of the machine and of processes, for benchmarks that spread work over several
 * processes (read from `os.cpus()` and `/proc`; Linux).
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import type { BenchRedis } from './redis-server.js';

/** Machine-wide CPU time so far (all cores): busy and total, in ms. */
export function machineCpu(): { busy: number; total: number } {
  let busy = 0;
  let total = 0;
  for (const { times } of cpus()) {
    const all = times.user + times.nice + times.sys + times.irq + times.idle;
    total += all;
    busy += all - times.idle;
  }
  return { busy, total };
}

/** CPU time (user + system) a process has used, in ms, from `/proc` (Linux; `NaN` elsewhere). Clock ticks of 10 ms. */
export function processCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10; // utime, stime (fields 14, 15)
  } catch {
    return Number.NaN;
  }
}

/** CPU time so far of the parent (this process), the workers and Redis, in ms. */
export function roleCpu(workers: readonly number[], redis: BenchRedis): { parent: number; workers: number; redis: number } {
  return { parent: processCpuMs(process.pid), workers: workers.reduce((sum, pid) => sum + processCpuMs(pid), 0), redis: processCpuMs(redis.pid) };
}
