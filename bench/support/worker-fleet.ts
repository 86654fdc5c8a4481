/**
 * Worker processes for the scale-out benchmark (`bench/workers/scale-out-worker.ts`, each a
 * `node --import tsx` process of its own), started together and stopped together.
 *
 * @module
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('../workers/scale-out-worker.ts', import.meta.url));

/** What the worker's marked thinking delta starts with, followed by its append time in ms (wall clock). */
export const SENT_AT = 'sent@';

/** Running worker processes. */
export interface WorkerFleet {
  readonly size: number;
  /** The processes' ids. */
  readonly pids: readonly number[];
  /**
   * Stops every process (SIGTERM: each closes its worker and backend; SIGKILL after 5 s) and
   * resolves how many model requests each answered (`undefined` for one that was killed).
   */
  stop(): Promise<(number | undefined)[]>;
}

interface Member {
  readonly child: ChildProcess;
  out: string;
  err: string;
}

async function stopOne(member: Member): Promise<number | undefined> {
  const { child } = member;
  if (child.exitCode === null && child.signalCode === null) {
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }
  const last = member.out.trim().split('\n').at(-1) ?? '';
  try {
    return (JSON.parse(last) as { answered: number }).answered;
  } catch {
    return undefined;
  }
}

/** Starts `count` processes with `config`; resolves once all pull tasks (all are stopped if one fails). */
export async function startWorkers(count: number, config: Record<string, unknown>): Promise<WorkerFleet> {
  const members: Member[] = [];
  const killAll = (): void => {
    for (const { child } of members) child.kill('SIGKILL');
  };
  process.once('exit', killAll); // the bench dying takes its workers with it
  const stop = async (): Promise<(number | undefined)[]> => {
    const answered = await Promise.all(members.map(stopOne));
    process.off('exit', killAll);
    return answered;
  };
  try {
    await Promise.all(
      Array.from({ length: count }, async () => {
        const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT, JSON.stringify(config)], { stdio: ['pipe', 'pipe', 'pipe'] });
        const member: Member = { child, out: '', err: '' };
        members.push(member);
        child.stderr!.on('data', (c: Buffer) => (member.err += c.toString()));
        await new Promise<void>((resolve, reject) => {
          child.stdout!.on('data', (c: Buffer) => {
            member.out += c.toString();
            if (member.out.includes('ready\n')) resolve();
          });
          child.once('exit', (code) => reject(new Error(`a scale-out worker process exited with ${String(code)} before it was ready: ${member.err.slice(-2000)}`)));
        });
      }),
    );
  } catch (e) {
    await stop();
    throw e;
  }
  return { size: count, pids: members.map((m) => m.child.pid!), stop };
}
