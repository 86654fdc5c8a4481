import { readFileSync, readlinkSync } from 'node:fs';

/**
 * What a lock of this process records on Linux (nothing elsewhere), read here as
 * `lock-holder.ts` reads it, so a test can plant a lock naming this process, or a dead one,
 * as the store would have written it.
 */
export function linuxIdentity(): { processStart?: string; pidNamespace?: string } {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    return { processStart: stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19], pidNamespace: readlinkSync('/proc/self/ns/pid') };
  } catch {
    return {};
  }
}
