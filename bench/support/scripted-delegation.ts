/**
 * Offline delegation on a `ScriptedModel` (no network, no delays): the main agent calls
 * `task` (or `multitask`) once, then answers; each child answers with a scripted reply. The
 * agents are told apart by a marker in their system prompt.
 *
 * @module
 */
import type { ChatRequest, ScriptedReply } from '../../src/index.js';
import { rx } from './rxharness.js';
import type { TempDirs } from './temp-dirs.js';

const MAIN = '[scripted-main]';
const CHILD = '[scripted-child]';

/** What the main agent does on its first step, and what each child answers. */
export interface ScriptedDelegation {
  /** How many tasks to delegate: 1 = one `task` call; more = one `multitask` call. */
  readonly tasks: number;
  readonly child: ScriptedReply;
  /** Children of one `multitask` running at once (0: no limit). */
  readonly pool?: number;
  readonly sessions?: InstanceType<typeof rx.MemorySessionStore>;
}

function firstStep(tasks: number): ScriptedReply {
  if (tasks === 1) return { toolCalls: [{ name: 'task', args: { agent_name: 'child', prompt: 'go', description: 'child' } }] };
  const list = Array.from({ length: tasks }, (_, i) => ({ index: i + 1, agent_name: 'child', prompt: 'go', description: `child ${i + 1}` }));
  return { toolCalls: [{ name: 'multitask', args: { tasks: list } }] };
}

function responder(script: ScriptedDelegation): (request: ChatRequest) => ScriptedReply {
  const delegate = firstStep(script.tasks);
  return ({ messages }) => {
    const system = messages.find((m) => m.role === 'system')?.content ?? '';
    if (system.includes(CHILD)) return script.child;
    return messages.some((m) => m.role === 'tool') ? { text: 'done' } : delegate;
  };
}

/** An engine with a `child` agent, whose main agent delegates as `script` says. */
export async function scriptedEngine(script: ScriptedDelegation, dirs: TempDirs) {
  const model = new rx.ScriptedModel(responder(script));
  const builtins = rx.createBuiltinTools().map((t) => t.name);
  const engine = new rx.HarnessEngine({
    model,
    workspace: dirs.workspace,
    homeDir: dirs.home,
    instructions: `${MAIN} You are the main agent.`,
    disabledTools: [...builtins, 'generate'],
    multitaskMaxTasks: script.pool ?? 0,
    ...(script.sessions ? { sessions: script.sessions } : {}),
  });
  engine.agents.add(rx.defineAgent({ name: 'child', description: 'A scripted child.', systemPrompt: `${CHILD} You are a child.` }));
  await engine.agents.list();
  return { engine, model };
}
