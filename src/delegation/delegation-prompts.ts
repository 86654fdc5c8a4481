import type { AgentDefinition } from '../subagent/agent-definition.js';

/** `- name: description` lines of the agents a model may delegate to. */
export function agentList(agents: readonly AgentDefinition[]): string {
  if (agents.length === 0) return '(no agents are available)';
  return agents.map((a) => `- ${a.name}: ${a.description}`).join('\n');
}

/** The `task` tool's description, listing the visible agents. */
export function taskToolDescription(agents: readonly AgentDefinition[]): string {
  return (
    'Delegate one bounded subtask to a subagent that works in its own isolated session and returns only its final answer. ' +
    'The subagent sees nothing of this conversation: its `prompt` must say everything it needs. ' +
    'Use `multitask` instead for several independent subtasks.\n\nAvailable agents:\n' +
    agentList(agents)
  );
}

/** The `multitask` tool's description, with the pool size and the visible agents. */
export function multitaskToolDescription(agents: readonly AgentDefinition[], poolSize: number): string {
  const pool = poolSize > 0 ? `at most ${poolSize} run at the same time and the rest wait their turn` : 'all run at the same time';
  return (
    `Run several independent subtasks in parallel, each in its own isolated subagent session (${pool}). ` +
    'Give each task an `index` from 1; results come back in index order, and one failed task never loses the others. ' +
    'Tasks cannot see each other or this conversation.\n\nAvailable agents:\n' +
    agentList(agents)
  );
}

/** The section of a delegating agent's system prompt that says how to delegate. */
export function delegationInstructions(agents: readonly AgentDefinition[], poolSize: number): string {
  const pool = poolSize > 0 ? `${poolSize} at a time` : 'all at once';
  return [
    '# Delegating to subagents',
    'You can hand bounded subtasks to subagents: `task` for one, `multitask` for several independent ones that run in parallel (' +
      pool +
      ').',
    'A subagent starts from nothing: it cannot see this conversation, so its prompt must carry the goal, the relevant paths and facts, ' +
      'the constraints and the shape of the answer you want back. You receive only its final answer, inside <task_result>.',
    'Delegate work that is self-contained and benefits from a fresh context (searching, reviewing, independent changes); ' +
      'do small things yourself. Check what subagents report before you rely on it.',
    '',
    'Available agents:',
    agentList(agents),
  ].join('\n');
}

let lastFacts: { readonly workspace: string; readonly day: number; readonly text: string } | undefined;

/** Facts every agent of the engine is told about where it works (made once a day per workspace: every child needs them). */
export function environmentFacts(workspace: string): string {
  const day = Math.floor(Date.now() / 86_400_000);
  if (lastFacts?.workspace === workspace && lastFacts.day === day) return lastFacts.text;
  const text = [
    '# Environment',
    `- Workspace: ${workspace} (tool paths are relative to it; you cannot reach outside it)`,
    `- Platform: ${process.platform}`,
    `- Date: ${new Date(day * 86_400_000).toISOString().slice(0, 10)}`,
  ].join('\n');
  lastFacts = { workspace, day, text };
  return text;
}

/** The main agent's role prompt when the engine is not given one. */
export const MAIN_AGENT_PROMPT = [
  'You are the main agent of rxharness, a coding and research assistant working in a project workspace.',
  'Understand the request, gather the facts you need with your tools, and give a clear, correct answer.',
  'Prefer doing over describing: read files, search, run commands when they settle a question.',
  'When you are done, answer with the result itself: concise, specific, and honest about anything left undone.',
].join('\n');
