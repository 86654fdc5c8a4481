/**
 * The chat messages the file-session tests store. Their workspace (and the home beside it)
 * comes from `workspaceHomePerTest` (test/support/workspace-home-per-test.ts).
 *
 * @module
 */
import type { ChatMessage } from '../../src/model/chat-message.js';

/** A user message saying `content`. */
export const user = (content: string): ChatMessage => ({ role: 'user', content });

/** An assistant message saying `content`. */
export const assistant = (content: string): ChatMessage => ({ role: 'assistant', content });
