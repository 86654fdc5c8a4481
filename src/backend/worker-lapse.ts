/**
 * How long a worker's heartbeats, or an app instance's, may be silent before it is taken for
 * dead.
 *
 * @module
 */

/**
 * How many stall intervals a worker's heartbeat (BullMQ's lock on its job, its beat in the
 * set of live workers) outlives its last renewal, and how long a taken job may go without its
 * first event. Two: a live worker whose event loop lags up to about one stall interval (a
 * flood of tasks keeps it busy) renews in time, as it beats every quarter or third of one; a
 * killed worker is taken for dead within two stall intervals (and a quarter, the launcher's
 * check). One interval lost tasks of live workers under load: a lag of three quarters of it let
 * the lock lapse, and BullMQ then fails the job.
 *
 * @internal
 */
export const LAPSE_STALLS = 2;

/**
 * The silence, in ms, after which a worker with stall interval `stallMs` is taken for dead
 * ({@link LAPSE_STALLS} stall intervals). An app instance too: its key lives that long past
 * its last beat (every third of a stall interval), for the same reason, as an engine busy
 * with many runs lags as a worker does.
 *
 * @internal
 */
export function lapseMs(stallMs: number): number {
  return LAPSE_STALLS * stallMs;
}

/**
 * How long, in ms, a worker may hold a job it took without writing its first event before the
 * job is given up (two {@link lapseMs}): a live worker under a flood starts what it took late,
 * after several round trips each behind a lagging event loop; a dead taker is found sooner, by
 * its lock lapsing.
 *
 * @internal
 */
export function unstartedMs(stallMs: number): number {
  return 2 * lapseMs(stallMs);
}
