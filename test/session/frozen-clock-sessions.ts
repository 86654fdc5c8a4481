/**
 * The scene of the tests over session files planted with odd times: a workspace per test, the
 * clock faked (Date only) at a fixed now, and a FileSessionStore on the workspace.
 *
 * @module
 */
import { join } from 'node:path';
import { afterEach, beforeEach, vi } from 'vitest';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { makeWorkspace, type TestWorkspace } from '../support/tool-context.js';

/** The current test's workspace and its sessions; see {@link frozenClockSessions}. */
export interface FrozenClockSessions {
  /** The path of `name` in the workspace's sessions folder. */
  at(name: string): string;
  /** A new FileSessionStore on the workspace. */
  store(): FileSessionStore;
}

/**
 * Registers the `beforeEach` that makes a workspace and fakes `Date` at `now` (timers run as
 * they do), and the `afterEach` that puts the clock back and removes the workspace. Call at
 * the top of a test file.
 */
export function frozenClockSessions(now: number): FrozenClockSessions {
  let ws: TestWorkspace | undefined;
  beforeEach(async () => {
    ws = await makeWorkspace();
    vi.useFakeTimers({ toFake: ['Date'], now });
  });
  afterEach(async () => {
    vi.useRealTimers();
    await ws?.cleanup();
  });
  return {
    at: (name) => join(ws!.dir, '.rxharness', 'sessions', name),
    store: () => new FileSessionStore(ws!.dir, { grantKey: 'k' }),
  };
}
