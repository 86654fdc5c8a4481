/**
 * Small builders for scripting delegation: tool calls of `task` / `multitask` in the fake
 * server's and the `ScriptedModel`'s shapes, and a main agent that plays steps in order.
 *
 * @module
 */
import type { FakeReply, FakeToolCall } from './fake-openai-server.js';
import type { Turn } from './agent-turns.js';

/** One `multitask` entry: `[index, agent_name, prompt, description]`. */
export type TaskTuple = readonly [number, string, string, string];

/** Arguments of a `task` call, as the model sends them. */
export type TaskCallArgs = { agent_name: string; prompt: string; description: string };

/** Arguments of a `multitask` call, as the model sends them. */
export type MultitaskCallArgs = { tasks: { index: number; agent_name: string; prompt: string; description: string }[] };

/** Arguments of a `task` call. */
export function taskArgs(agent: string, prompt: string, description = `run ${agent}`): TaskCallArgs {
  return { agent_name: agent, prompt, description };
}

/** Arguments of a `multitask` call. */
export function multitaskArgs(tasks: readonly TaskTuple[]): MultitaskCallArgs {
  return { tasks: tasks.map(([index, agent_name, prompt, description]) => ({ index, agent_name, prompt, description })) };
}

/** A fake server reply calling `task`. */
export function taskReply(agent: string, prompt: string, description?: string): FakeReply {
  return { toolCalls: [{ name: 'task', arguments: taskArgs(agent, prompt, description) } satisfies FakeToolCall] };
}

/** A fake server reply calling `multitask`. */
export function multitaskReply(tasks: readonly TaskTuple[]): FakeReply {
  return { toolCalls: [{ name: 'multitask', arguments: multitaskArgs(tasks) }] };
}

/**
 * A route playing `steps` in order (step n answers the n-th request of a run), then
 * answering `final: <last tool result>` so the run's text shows what the delegation returned.
 */
export function steps(...replies: readonly FakeReply[]): (turn: Turn) => FakeReply {
  // One big chunk: echoing a long result in small deltas only slows the tests down.
  return (turn) => replies[turn.step - 1] ?? { text: `final: ${turn.toolResults.at(-1) ?? ''}`, chunkSize: 100_000 };
}
