/**
 * Replies that each cost the same, known number of tokens, for the tests of a token budget
 * (in one process, and shared through Redis): what a run has spent is then a count of its
 * steps.
 *
 * @module
 */
import type { FakeReply } from '../../support/fake-openai-server.js';

/** The tokens each {@link costing} reply spends (all of them the answer's). */
export const STEP = 100;

const usage = { prompt_tokens: 0, completion_tokens: STEP, total_tokens: STEP };

/** `reply`, with a usage of {@link STEP} tokens. */
export const costing = (reply: FakeReply): FakeReply => ({ ...reply, usage });

/** A {@link costing} step that calls a harmless tool: an agent would go on for ever if nothing stopped it. */
export const busy: FakeReply = costing({ toolCalls: [{ name: 'todo', arguments: { todos: [] } }] });
