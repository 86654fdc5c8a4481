/** The resource kinds a run could leak: timers and sockets. */
const WATCHED = ['Timeout', 'TCPSocketWrap', 'TCPServerWrap'] as const;

/** How many of each watched resource kind are active now. */
export type ResourceCounts = Record<(typeof WATCHED)[number], number>;

/** Counts the active timers and sockets of this process. */
export function resourceCounts(): ResourceCounts {
  const info = process.getActiveResourcesInfo();
  const counts = { Timeout: 0, TCPSocketWrap: 0, TCPServerWrap: 0 };
  for (const kind of info) if (kind in counts) counts[kind as keyof ResourceCounts] += 1;
  return counts;
}

/**
 * The watched resources above `baseline`, once sockets had a chance to finish closing:
 * a closed socket is released on a later turn of the event loop, so this checks again on
 * each of up to `turns` turns (setImmediate, which is not itself a watched resource) and
 * returns as soon as nothing is left. Returns what is still above the baseline.
 */
export async function leakedResources(baseline: ResourceCounts, turns = 50): Promise<Partial<ResourceCounts>> {
  let extra: Partial<ResourceCounts> = {};
  for (let turn = 0; turn < turns; turn++) {
    const now = resourceCounts();
    extra = {};
    for (const kind of WATCHED) if (now[kind] > baseline[kind]) extra[kind] = now[kind] - baseline[kind];
    if (Object.keys(extra).length === 0) return extra;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return extra;
}
