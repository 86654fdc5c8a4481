/**
 * CPU time for work budgets: a test proving that some work is linear, not quadratic, caps it
 * in CPU time spent by this process, not in wall-clock time, which a busy machine stretches
 * by the share the other processes take (several times over on 2 shared cores).
 *
 * @module
 */

/** The CPU time this process has used so far (user and system, all its threads), in milliseconds. */
export function cpuTimeMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1_000;
}
