/**
 * The scheduling scenario: the main agent runs a `multitask` of 8 tasks; every child
 * answers after 300 ms (server-side delay); then the main agent answers.
 *
 * @module
 */
import type { FakeHandler } from '../../test/support/fake-openai-server.js';

/** In the sleeper's system prompt. */
export const SLEEPER_MARKER = '[bench-sleeper]';
/** Tasks of the multitask call. */
export const TASKS = 8;
/** How long each child takes to answer, in milliseconds. */
export const CHILD_DELAY_MS = 300;

const tasks = Array.from({ length: TASKS }, (_, i) => ({ index: i + 1, agent_name: 'sleeper', prompt: 'Wait, then answer.', description: `sleep ${i + 1}` }));

const handler: FakeHandler = ({ body }) => {
  const messages = body.messages ?? [];
  const system = String(messages.find((m) => m.role === 'system')?.content ?? '');
  if (system.includes(SLEEPER_MARKER)) return { text: 'rested', delayMs: CHILD_DELAY_MS };
  const lastUser = messages.findLastIndex((m) => m.role === 'user');
  if (messages.slice(lastUser + 1).some((m) => m.role === 'tool')) return { text: 'all rested' };
  return { toolCalls: [{ name: 'multitask', arguments: { tasks } }] };
};

export default handler;
