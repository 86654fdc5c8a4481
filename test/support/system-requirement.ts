/**
 * Tests that need a program that `npm ci` may not bring: Debian's `redis-server`, and Chromium
 * where the npm-shipped one cannot run (see `test/web/chromium.ts`). On a machine without it they
 * are skipped, with a note on stderr saying what is missing and how to install it, so `npm test`
 * right after `npm ci` still passes.
 * CI installs the programs and sets `RXHARNESS_REQUIRE_SYSTEM=1`, which turns a missing
 * one into a failure: there a skip would hide that the tests never ran.
 *
 * @module
 */

/** Whether the environment demands every system program (CI). */
import { spawnSync } from 'node:child_process';

export const SYSTEM_REQUIRED = process.env.RXHARNESS_REQUIRE_SYSTEM === '1';

/**
 * Says whether tests needing `program` can run. When it is missing: throws under
 * `RXHARNESS_REQUIRE_SYSTEM=1`, otherwise prints the note once and answers false (skip).
 *
 * @example
 * ```ts
 * describe.skipIf(!systemProgram('chromium', findChromium(), 'apt-get install -y chromium'))('the page', () => { ... });
 * ```
 */
export function systemProgram(program: string, path: string | undefined, install: string): boolean {
  if (path !== undefined) return true;
  const note = `${program} is not installed, so the tests that need it are skipped. Install it with: ${install}`;
  if (SYSTEM_REQUIRED) throw new Error(`RXHARNESS_REQUIRE_SYSTEM=1: ${note}`);
  process.stderr.write(`\n[rxharness tests] NOTE: ${note}\n`);
  return false;
}

/**
 * Whether the command-line program `command` runs here (`command args` exits 0), for tests
 * that check an attack on a real program (`make`, `git`, `ssh`, `awk`); when it does not,
 * a note or, under `RXHARNESS_REQUIRE_SYSTEM=1`, a failure (see {@link systemProgram}).
 *
 * @example
 * ```ts
 * it.runIf(commandRuns('make', ['--version'], 'make'))('make runs the recipe (the attack is real)', () => { ... });
 * ```
 */
export function commandRuns(command: string, args: readonly string[], debianPackage: string): boolean {
  const ran = spawnSync(command, args, { stdio: 'ignore', timeout: 30_000 });
  return systemProgram(command, ran.status === 0 ? command : undefined, `sudo apt-get install -y ${debianPackage}`);
}
