/**
 * Tells the agents of a delegation tree apart by the request their model receives, so one
 * fake server handler (or one `ScriptedModel` responder) can script a main agent and its
 * children: the main agent's system prompt says "main agent"; a test agent's starts with
 * "You are <name>, a test agent." (see {@link testAgent}).
 *
 * @module
 */
import type { ChatMessage } from '../../src/model/chat-message.js';
import { defineAgent, type AgentInput } from '../../src/subagent/define-agent.js';
import type { AgentDefinition } from '../../src/subagent/agent-definition.js';

/** One model request, seen from the agent that sent it. */
export interface Turn {
  /** `main`, a test agent's name, or the first line of an unknown system prompt. */
  readonly agent: string;
  /** The ReAct step of the current run: 1 + the assistant messages since its prompt. */
  readonly step: number;
  /** The last user message: the run's prompt (a child's `prompt` argument). */
  readonly prompt: string;
  readonly system: string;
  /** Contents of the current run's tool messages so far, in order. */
  readonly toolResults: readonly string[];
  /** Names of the tools offered with the request (none on a run's last allowed step). */
  readonly toolNames: readonly string[];
}

const TEST_AGENT = /^You are ([A-Za-z0-9_-]+), a test agent\./;

/** The system prompt a test agent named `name` runs with. */
export function testAgentPrompt(name: string): string {
  return `You are ${name}, a test agent. Answer the prompt.`;
}

/** A definition whose requests {@link readTurn} recognises by name. */
export function testAgent(name: string, fields: Omit<AgentInput, 'name' | 'description' | 'systemPrompt'> = {}): AgentDefinition {
  return defineAgent({ name, description: `Test agent ${name}.`, systemPrompt: testAgentPrompt(name), ...fields });
}

/** Reads a request's messages and offered tool names as a {@link Turn}. */
export function readTurn(messages: readonly ChatMessage[], toolNames: readonly string[]): Turn {
  const system = messages.find((m) => m.role === 'system')?.content ?? '';
  const named = TEST_AGENT.exec(system);
  const agent = named ? (named[1] as string) : /main agent/.test(system) ? 'main' : (system.split('\n')[0] ?? '');
  // Earlier turns of a continued session come before the last user message.
  const promptAt = messages.findLastIndex((m) => m.role === 'user');
  const run = messages.slice(promptAt + 1);
  return {
    agent,
    step: 1 + run.filter((m) => m.role === 'assistant').length,
    prompt: promptAt >= 0 ? String(messages[promptAt]!.content) : '',
    system,
    toolResults: run.flatMap((m) => (m.role === 'tool' ? [m.content] : [])),
    toolNames,
  };
}
