/**
 * A home for a test engine that has no workspace of its own to put one beside (see
 * `homeBeside`): without a `homeDir` the engine reads `~/.rxharness/` of whoever runs the tests,
 * whose agents (a `mode: primary` one above all), skills and broken files would change results.
 *
 * @module
 */
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A folder that is never made, so an empty home: the engine only reads `.rxharness/` from its
 * `homeDir`, and a missing folder reads as one with nothing in it. Give it as `homeDir` only
 * (a `FileSessionStore` writes its grant key into its `home`: give a store a folder of the test's).
 */
export const EMPTY_HOME = join(tmpdir(), `rxharness-empty-home-${randomUUID()}`);
