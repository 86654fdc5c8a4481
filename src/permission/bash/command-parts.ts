/**
 * The entry of the bash reader: a command line split into what rules are matched against,
 * cached per line (the reading itself is `part-collector`'s, its product `part-sink`'s).
 *
 * @module
 */
import type { CommandParts } from './part-sink.js';
import { Collector } from './part-collector.js';

export type { CommandParts } from './part-sink.js';

const CACHE_SIZE = 256;
const cache = new Map<string, CommandParts>();

/**
 * Splits a bash command line into what rules are matched against (see {@link CommandParts}).
 * Pure and cached: a policy asks about the same line once per layer.
 *
 * @example
 * ```ts
 * commandParts('cd src && /bin/rm -f "a b"');
 * // { commands: ['cd src', '/bin/rm -f a b'], variants: ['cd src && /bin/rm -f "a b"', 'rm -f a b'] }
 * ```
 */
export function commandParts(line: string): CommandParts {
  const hit = cache.get(line);
  if (hit !== undefined) return hit;
  const collector = new Collector();
  collector.add('variant', line); // a pattern written for the whole line keeps matching it
  collector.line(line, 'command', 0);
  const parts = collector.result(line);
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(line, parts);
  return parts;
}
