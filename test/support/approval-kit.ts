/**
 * End-to-end permission and approval runs: a sandbox folder holding the workspace, a folder
 * outside it and an empty home; an offline engine on a {@link ScriptedModel} routed per
 * agent; an approval handler that records what it is asked; and readers for the tool-call
 * events and the tool messages the model read.
 *
 * @module
 */
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import type { HarnessEngineOptions } from '../../src/engine/engine-options.js';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { unwrapEvent } from '../../src/events/operators/unwrap-task-events.js';
import type { ChatRequest } from '../../src/model/chat-model.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import type { ApprovalDecision, ApprovalHandler, ApprovalRequest } from '../../src/permission/approval.js';
import type { AgentDefinition } from '../../src/subagent/agent-definition.js';
import { readTurn } from './agent-turns.js';
import { scriptedRoutes, type ScriptedRoute } from './scripted-routes.js';

/** `<root>/ws` (the workspace), `<root>/outside` and `<root>/home`, all real paths. */
export interface Sandbox {
  readonly root: string;
  /** The workspace. */
  readonly dir: string;
  /** A folder next to the workspace, outside it. */
  readonly outside: string;
  readonly home: string;
  /** Writes a file below `base` (default: the workspace), creating folders; returns its absolute path. */
  file(relativePath: string, content: string, base?: string): Promise<string>;
  cleanup(): Promise<void>;
}

/** Creates a sandbox; call `cleanup` in `afterEach`. */
export async function makeSandbox(): Promise<Sandbox> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'rxharness-approval-')));
  const [dir, outside, home] = ['ws', 'outside', 'home'].map((name) => join(root, name)) as [string, string, string];
  await Promise.all([dir, outside, home].map((folder) => mkdir(folder)));
  return {
    root,
    dir,
    outside,
    home,
    async file(relativePath, content, base = dir) {
      const absolute = join(base, relativePath);
      await mkdir(dirname(absolute), { recursive: true });
      await writeFile(absolute, content);
      return absolute;
    },
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}

/** An offline engine in a sandbox. */
export interface SandboxEngine {
  readonly engine: HarnessEngine;
  readonly model: ScriptedModel;
  readonly sandbox: Sandbox;
}

/**
 * An engine on the sandbox's workspace and home whose model answers each agent by its route
 * (`main`, a test agent's name, `*` for any other), with `agents` added and discovery done.
 */
export async function sandboxEngine(
  sandbox: Sandbox,
  routes: Readonly<Record<string, ScriptedRoute>>,
  agents: readonly AgentDefinition[] = [],
  options: Partial<HarnessEngineOptions> = {},
): Promise<SandboxEngine> {
  const model = new ScriptedModel(scriptedRoutes(routes));
  const engine = new HarnessEngine({ model, workspace: sandbox.dir, homeDir: sandbox.home, ...options });
  for (const agent of agents) engine.agents.add(agent);
  await engine.agents.list();
  return { engine, model, sandbox };
}

/** An approval handler that keeps every request and signal it gets. */
export interface ApprovalRecorder {
  readonly approve: ApprovalHandler;
  readonly requests: ApprovalRequest[];
  readonly signals: AbortSignal[];
}

/**
 * Records each request, then answers with `answer` (which may throw, return a promise, or
 * return something that is not a decision, to test how the engine copes).
 */
export function recordApprovals(answer: (request: ApprovalRequest) => unknown): ApprovalRecorder {
  const requests: ApprovalRequest[] = [];
  const signals: AbortSignal[] = [];
  return {
    requests,
    signals,
    approve: (request, { signal }) => {
      requests.push(request);
      signals.push(signal);
      return answer(request) as ApprovalDecision | Promise<ApprovalDecision>;
    },
  };
}

/**
 * The tool-call and approval events of one tool (every event with a `toolName`), wrappers
 * taken off, as `<'>' per level of delegation><agentName>:<type>`, in stream order.
 *
 * @example
 * ```ts
 * callTrail(events, 'bash'); // ['>>leaf:ToolCallStart', '>>leaf:HITLPending', ...]
 * ```
 */
export function callTrail(events: readonly AgentEvent[], toolName: string): string[] {
  return events.flatMap((outer) => {
    const { event, path } = unwrapEvent(outer);
    if (!('toolName' in event) || event.toolName !== toolName) return [];
    return [`${'>'.repeat(path.length)}${event.agentName}:${event.type}`];
  });
}

/** Every event of a given type at any depth, unwrapped, in stream order. */
export function deepEvents<T extends AgentEvent['type']>(events: readonly AgentEvent[], type: T): Extract<AgentEvent, { type: T }>[] {
  return events.flatMap((outer) => {
    const { event } = unwrapEvent(outer);
    return event.type === type ? [event as Extract<AgentEvent, { type: T }>] : [];
  });
}

/** The tool messages of an agent's last request to the model (what it read of its tool calls). */
export function lastToolMessages(requests: readonly ChatRequest[], agent: string): string[] {
  const mine = requests.filter((r) => readTurn(r.messages, []).agent === agent);
  const last = mine.at(-1);
  if (!last) throw new Error(`agent "${agent}" sent no model request`);
  return readTurn(last.messages, []).toolResults.map(String);
}
