import type { FakeReply, RecordedRequest } from './types.js';

/**
 * The reply used when no queued reply or handler is left: it echoes the last user
 * message, so a test can see which prompt reached the model.
 *
 * @example
 * ```ts
 * defaultReply(request); // { text: 'You said: hello' } for a last user message "hello"
 * ```
 */
export function defaultReply(request: RecordedRequest): FakeReply {
  const lastUser = [...(request.body.messages ?? [])].reverse().find((message) => message.role === 'user');
  return { text: lastUser ? `You said: ${lastUser.content}` : 'ok' };
}
