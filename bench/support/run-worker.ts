import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const exec = promisify(execFile);

/**
 * Runs `bench/workers/<name>` in a fresh `node` process (plain node: no TypeScript loader,
 * whose memory would be counted) with `flags` and one JSON argument, and parses the JSON
 * line it prints last.
 */
export async function runWorker<T>(name: string, config: unknown, flags: readonly string[] = []): Promise<T> {
  const script = fileURLToPath(new URL(`../workers/${name}`, import.meta.url));
  const { stdout } = await exec(process.execPath, [...flags, script, JSON.stringify(config)], { maxBuffer: 16 * 1024 * 1024 });
  const last = stdout.trim().split('\n').at(-1);
  if (!last) throw new Error(`worker ${name} printed nothing`);
  return JSON.parse(last) as T;
}
