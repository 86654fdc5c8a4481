/**
 * Now, in ms since the epoch with sub-millisecond precision: comparable across the processes
 * of one machine (the paced model stamps its chunks with it, the load clients read them).
 */
export const wallNow = (): number => performance.timeOrigin + performance.now();
