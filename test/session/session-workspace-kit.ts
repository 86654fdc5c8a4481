/**
 * What the file-session tests share: a fresh workspace for each test (the store's folder
 * lives in it), removed after the test, and the chat messages they store.
 *
 * @module
 */
import type { ChatMessage } from '../../src/model/chat-message.js';
import { toolContextPerTest } from '../support/tool-context-per-test.js';

/** The current test's workspace folder; see {@link workspacePerTest}. */
export interface WorkspacePerTest {
  /** The folder (made before the test, removed after it); reading it outside a test throws. */
  readonly dir: string;
}

/**
 * Registers the hooks that make a workspace before each test and remove it after: those of
 * `toolContextPerTest` (the stores need only its folder), so there is one way to do it.
 *
 * @example
 * ```ts
 * const ws = workspacePerTest();
 * it('...', async () => {
 *   await new FileSessionStore(ws.dir).append('s1', [user('hi')]);
 * });
 * ```
 */
export function workspacePerTest(): WorkspacePerTest {
  const fresh = toolContextPerTest();
  return {
    get dir() {
      return fresh.ws.dir;
    },
  };
}

/** A user message saying `content`. */
export const user = (content: string): ChatMessage => ({ role: 'user', content });

/** An assistant message saying `content`. */
export const assistant = (content: string): ChatMessage => ({ role: 'assistant', content });
