import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';

/**
 * The environment variable that marks every process of one stdio MCP server: the process the
 * SDK spawns has it, and its children inherit it through fork and exec, so a server started
 * through a wrapper (`npx`, `sh -c`, a script) can be found whole, even once its child has
 * been left an orphan (its parent gone, its parent pid now init's).
 */
export const MCP_SERVER_TAG = 'RXHARNESS_MCP_SERVER_ID';

/** A fresh value for {@link MCP_SERVER_TAG}, one per process the SDK spawns. */
export function newServerTag(): string {
  return randomUUID();
}

/** The processes of one stdio server other than the one the SDK spawned (which node ends itself). */
export interface ServerTree {
  /** Finds the server's processes now and remembers them; called before anything is signalled, while parent links still hold. Never rejects. */
  collect(): Promise<void>;
  /** Sends `name` to each remembered process still running, after looking again for new ones. Never rejects. */
  signal(name: NodeJS.Signals): Promise<void>;
  /** Whether any remembered process is still running (a zombie is not); reads only theirs, at once. */
  alive(): boolean;
}

/** A tree with nothing in it: the wait on the spawned process alone. */
export const NO_TREE: ServerTree = { collect: async () => undefined, signal: async () => undefined, alive: () => false };

/** One line of `/proc/<pid>/stat`, as far as it is read. */
interface Stat {
  readonly ppid: number;
  readonly state: string;
  /** Clock ticks after boot at which it started: with the pid, who it is (a pid is reused). */
  readonly started: string;
}

/**
 * The processes of the server whose spawned process is `rootPid`: its descendants by parent
 * pid, and every process carrying `MCP_SERVER_TAG=tag` (one that left the tree: its parent
 * exited). Each is remembered with its start time, so a pid the system gave to another
 * process meanwhile is never signalled. Linux only, read from `/proc`: elsewhere (macOS,
 * Windows) or without `/proc` (a locked-down container) it finds nothing, and only the
 * spawned process is ended, as before. `/proc` is read asynchronously (a host may run
 * thousands of processes: the event loop is not held meanwhile).
 *
 * @example
 * ```ts
 * const tree = serverTree(child.pid, tag);
 * await tree.collect(); // before the wrapper exits and its child is re-parented
 * await tree.signal('SIGTERM');
 * ```
 */
export function serverTree(rootPid: number | undefined, tag: string): ServerTree {
  const known = new Map<number, string>();
  // When the spawned process started, as first seen: once it has gone, its pid may be another's.
  let rootStarted: string | undefined;
  /** Looks, remembers, and tells how many processes it found that it did not know. */
  const look = async (): Promise<number> => {
    const table = await processTable();
    if (table === undefined) return 0;
    running(); // forgets the ones that have gone, whose pids may be others' now
    const root = rootPid === undefined ? undefined : table.get(rootPid);
    rootStarted ??= root?.started;
    const from = root !== undefined && root.started === rootStarted ? rootPid : undefined;
    const before = known.size;
    const children = new Map<number, number[]>();
    for (const [pid, stat] of table) {
      const siblings = children.get(stat.ppid);
      if (siblings === undefined) children.set(stat.ppid, [pid]);
      else siblings.push(pid);
    }
    // Below the spawned process, and below every process found before (its own tree stays linked).
    const stack = [...(from === undefined ? [] : [from]), ...known.keys()];
    const seen = new Set<number>(stack);
    while (stack.length > 0) {
      for (const child of children.get(stack.pop()!) ?? []) {
        if (seen.has(child)) continue;
        seen.add(child);
        stack.push(child);
        remember(child, table.get(child)!);
      }
    }
    const others = [...table].filter(([pid]) => !known.has(pid));
    const tagged = await inBatches(others, ([pid]) => carriesTag(pid, tag));
    others.forEach(([pid, stat], i) => tagged[i] && remember(pid, stat));
    return known.size - before;
  };
  const remember = (pid: number, stat: Stat): void => {
    if (pid !== rootPid && pid !== process.pid && stat.state !== 'Z') known.set(pid, stat.started);
  };
  /** The remembered processes still running as themselves; the others are forgotten. */
  const running = (): number[] => {
    for (const [pid, started] of known) {
      const now = statOf(pid);
      if (now === undefined || now.started !== started || now.state === 'Z' || now.state === 'X') known.delete(pid);
    }
    return [...known.keys()];
  };
  return {
    collect: async () => void (await look()),
    signal: async (name) => {
      // With SIGKILL, a few rounds: a process may fork while its siblings are being killed.
      for (let round = 0; round < (name === 'SIGKILL' ? 3 : 1); round++) {
        const found = await look();
        for (const pid of running()) send(pid, name);
        if (round > 0 && found === 0) break;
      }
    },
    alive: () => running().length > 0,
  };
}

function send(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // It has just exited.
  }
}

/** Every process's stat, by pid; undefined where there is no `/proc`. */
async function processTable(): Promise<Map<number, Stat> | undefined> {
  if (process.platform !== 'linux') return undefined;
  let entries: string[];
  try {
    entries = await readdir('/proc');
  } catch {
    return undefined;
  }
  const pids = entries.filter((entry) => /^\d+$/.test(entry)).map(Number);
  const stats = await inBatches(pids, async (pid) => parseStat(await readFile(`/proc/${pid}/stat`, 'latin1').catch(() => undefined)));
  const table = new Map<number, Stat>();
  pids.forEach((pid, i) => stats[i] !== undefined && table.set(pid, stats[i]));
  return table;
}

/** Files read at once: a host runs thousands of processes, and opening all their files together could meet the process's file limit (EMFILE), which would read as "exited". */
const BATCH = 64;

/** `read` of every item, {@link BATCH} at a time, in order. */
async function inBatches<T, R>(items: readonly T[], read: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += BATCH) out.push(...(await Promise.all(items.slice(i, i + BATCH).map(read))));
  return out;
}

/** One process's stat now; undefined once it has exited. */
function statOf(pid: number): Stat | undefined {
  try {
    return parseStat(readFileSync(`/proc/${pid}/stat`, 'latin1'));
  } catch {
    return undefined;
  }
}

function parseStat(line: string | undefined): Stat | undefined {
  if (line === undefined) return undefined; // it has exited
  // `pid (name) state ppid ...`: the name may hold spaces and parentheses, so read after the last `)`.
  const fields = line.slice(line.lastIndexOf(')') + 2).split(' ');
  const ppid = Number(fields[1]);
  const started = fields[19];
  return Number.isInteger(ppid) && started !== undefined ? { ppid, state: fields[0] ?? '', started } : undefined;
}

async function carriesTag(pid: number, tag: string): Promise<boolean> {
  try {
    return `\0${await readFile(`/proc/${pid}/environ`, 'latin1')}`.includes(`\0${MCP_SERVER_TAG}=${tag}\0`);
  } catch {
    return false; // another user's process, or one that has just exited
  }
}
