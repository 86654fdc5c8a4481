/**
 * Builders of realistic event sequences for the adapter tests: real ids, one `TaskWrap` per
 * level of delegation (outermost frame first), interleaved multitask children. These are
 * inputs; tests state their expectations separately.
 */
import type { AgentEvent, JsonValue, RunMetrics, TaskFrame, TodoItem, ToolCallInfo } from '../../src/events/index.js';

/** What a child run needs to know about the task that started it. */
export interface TaskSpec {
  readonly taskId: string;
  readonly agentName: string;
  readonly description: string;
  readonly taskIndex?: number;
  readonly multitask?: boolean;
}

/** Options of a run's end. */
export interface EndSpec {
  readonly abnormal?: boolean;
  readonly error?: string;
  readonly tokens?: number;
  readonly durationMs?: number;
  readonly tasks?: number;
  readonly steps?: number;
}

/** Emits the events of one run, wrapped in the frames of every task above it. */
export class FixtureRun {
  constructor(
    readonly runId: string,
    readonly agentName: string,
    readonly path: readonly TaskFrame[] = [],
    readonly sessionId = `session-${runId}`,
  ) {}

  /** A child run of this one, started by `task` or `multitask`. */
  task(spec: TaskSpec, runId = `run-${spec.taskId}`): FixtureRun {
    const frame: TaskFrame = {
      runId, agentName: spec.agentName, parentRunId: this.runId, taskId: spec.taskId,
      taskIndex: spec.taskIndex ?? 1, taskAgentName: spec.agentName, taskDescription: spec.description,
      multitask: spec.multitask ?? false,
    };
    return new FixtureRun(runId, spec.agentName, [...this.path, frame], `session-${spec.taskId}`);
  }

  /** Wraps one of this run's own events for the streamed (outermost) run. */
  wrap(event: AgentEvent): AgentEvent {
    return this.path.reduceRight<AgentEvent>((inner, frame) => ({ type: 'TaskWrap', ...frame, event: inner }), event);
  }

  start(prompt: string): AgentEvent {
    return this.wrap({ type: 'RunStart', ...this.who(), sessionId: this.sessionId, prompt });
  }

  contextSize(messageCount: number, tokenCount: number): AgentEvent {
    return this.wrap({ type: 'ContextSize', ...this.who(), messageCount, tokenCount });
  }

  /** One model turn: ReasonStart, thinking and text deltas in small chunks, ReasonEnd. */
  reason(step: number, text: string, options: { thinking?: string; toolCalls?: ToolCallInfo[] } = {}): AgentEvent[] {
    const deltas = (kind: 'text' | 'thinking', all: string): AgentEvent[] =>
      chunks(all, 7).map((piece) => this.wrap({ type: 'ReasonDelta', ...this.who(), step, kind, text: piece }));
    return [
      this.wrap({ type: 'ReasonStart', ...this.who(), step }),
      ...deltas('thinking', options.thinking ?? ''),
      ...deltas('text', text),
      this.wrap({ type: 'ReasonEnd', ...this.who(), step, text, toolCalls: options.toolCalls ?? [], durationMs: 40 }),
    ];
  }

  actionStart(step: number, toolCalls: ToolCallInfo[]): AgentEvent {
    return this.wrap({ type: 'ActionStart', ...this.who(), step, toolCalls });
  }

  actionEnd(step: number): AgentEvent {
    return this.wrap({ type: 'ActionEnd', ...this.who(), step });
  }

  toolStart(step: number, call: ToolCallInfo): AgentEvent {
    return this.wrap({ type: 'ToolCallStart', ...this.who(), step, callId: call.callId, toolName: call.name, args: call.args });
  }

  toolEnd(step: number, call: ToolCallInfo, text: string, error?: string): AgentEvent {
    return this.wrap({
      type: 'ToolCallEnd', ...this.who(), step, callId: call.callId, toolName: call.name, text,
      ...(error === undefined ? {} : { error }), durationMs: 12,
    });
  }

  /** A whole step that calls one ordinary tool. */
  toolStep(step: number, call: ToolCallInfo, result: string, error?: string): AgentEvent[] {
    return [
      ...this.reason(step, '', { toolCalls: [call] }),
      this.actionStart(step, [call]),
      this.toolStart(step, call),
      this.toolEnd(step, call, result, error),
      this.actionEnd(step),
    ];
  }

  plan(todos: TodoItem[]): AgentEvent {
    return this.wrap({ type: 'Plan', ...this.who(), todos });
  }

  approvalPending(call: ToolCallInfo, reason: string): AgentEvent {
    return this.wrap({ type: 'HITLPending', ...this.who(), approvalId: `approval_${call.callId}`, callId: call.callId, toolName: call.name, args: call.args, reason });
  }

  approvalDecided(call: ToolCallInfo, decision: 'approve' | 'reject', comment?: string): AgentEvent {
    return this.wrap({
      type: 'HITLDecided', ...this.who(), approvalId: `approval_${call.callId}`, callId: call.callId, toolName: call.name, decision,
      ...(comment === undefined ? {} : { comment }),
    });
  }

  end(text: string, spec: EndSpec = {}): AgentEvent {
    const tokens = spec.tokens ?? 100;
    const metrics: RunMetrics = {
      promptTokens: Math.round(tokens * 0.8), completionTokens: tokens - Math.round(tokens * 0.8), totalTokens: tokens,
      durationMs: spec.durationMs ?? 1500, tasks: spec.tasks ?? 0,
    };
    return this.wrap({
      type: 'RunEnd', ...this.who(), text, abnormal: spec.abnormal ?? false,
      ...(spec.error === undefined ? {} : { error: spec.error }), metrics, steps: spec.steps ?? 1,
    });
  }

  private who(): { runId: string; agentName: string } {
    return { runId: this.runId, agentName: this.agentName };
  }
}

/** A tool call as the model would ask for it. */
export function call(callId: string, name: string, args: JsonValue): ToolCallInfo {
  return { callId, name, args };
}

/** Merges sequences round-robin: different sequences interleave, each keeps its own order. */
export function interleave(...sequences: AgentEvent[][]): AgentEvent[] {
  const out: AgentEvent[] = [];
  const longest = Math.max(0, ...sequences.map((s) => s.length));
  for (let i = 0; i < longest; i += 1) for (const s of sequences) if (i < s.length) out.push(s[i] as AgentEvent);
  return out;
}

function chunks(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** The runs of {@link multitaskRun}, for tests that need their ids. */
export interface MultitaskFixture {
  readonly events: AgentEvent[];
  readonly main: FixtureRun;
  /** Two `explore` tasks (same agent, different task ids) and a failing `bash` task. */
  readonly children: readonly [FixtureRun, FixtureRun, FixtureRun];
}

/**
 * main → multitask of three children that interleave: `explore` #1 (reads a file, succeeds),
 * `explore` #2 (greps, succeeds), `bash` #3 (its tool fails, it ends abnormally); then main
 * answers.
 */
export function multitaskRun(): MultitaskFixture {
  const main = new FixtureRun('run-main', 'main');
  const tasks = [
    { index: 1, agent_name: 'explore', prompt: 'Find the tests', description: 'Find tests' },
    { index: 2, agent_name: 'explore', prompt: 'Find TODO comments', description: 'Find TODOs' },
    { index: 3, agent_name: 'bash', prompt: 'Run git log', description: 'Recent commits' },
  ];
  const mt = call('call-mt', 'multitask', { tasks });
  const [a, b, c] = tasks.map((t, i) =>
    main.task({ taskId: `task-${i + 1}`, agentName: t.agent_name, description: t.description, taskIndex: t.index, multitask: true }),
  ) as [FixtureRun, FixtureRun, FixtureRun];
  const childA = [a.start('Find the tests'), ...a.toolStep(1, call('a1', 'read', { path: 'test/index.ts' }), 'export {}'), ...a.reason(2, 'Tests live in test/.'), a.end('Tests live in test/.', { tokens: 300, steps: 2 })];
  const childB = [b.start('Find TODO comments'), ...b.toolStep(1, call('b1', 'grep', { pattern: 'TODO' }), 'src/a.ts:3: TODO'), ...b.reason(2, 'One TODO in src/a.ts.'), b.end('One TODO in src/a.ts.', { tokens: 200, steps: 2 })];
  const childC = [c.start('Run git log'), ...c.toolStep(1, call('c1', 'bash', { command: 'git log -3' }), '', 'not a git repository'), c.end('', { abnormal: true, error: 'git failed: not a git repository', tokens: 50 })];
  const events = [
    main.start('Survey this project'),
    main.contextSize(2, 120),
    ...main.reason(1, 'I will delegate.', { thinking: 'Three things to check.', toolCalls: [mt] }),
    main.actionStart(1, [mt]),
    main.toolStart(1, mt),
    ...interleave(childA, childB, childC),
    main.toolEnd(1, mt, '<multitask_results>…</multitask_results>'),
    main.actionEnd(1),
    ...main.reason(2, 'Tests are in test/, one TODO, no git.'),
    main.end('Tests are in test/, one TODO, no git.', { tokens: 1200, tasks: 3, steps: 2 }),
  ];
  return { events, main, children: [a, b, c] };
}

/** The runs of {@link nestedRun}. */
export interface NestedFixture {
  readonly events: AgentEvent[];
  readonly main: FixtureRun;
  readonly child: FixtureRun;
  readonly grandchild: FixtureRun;
}

/** main → task(general) → task(explore): the grandchild's events arrive wrapped twice. */
export function nestedRun(): NestedFixture {
  const main = new FixtureRun('run-main', 'main');
  const child = main.task({ taskId: 'task-g', agentName: 'general', description: 'Review the parser' });
  const grandchild = child.task({ taskId: 'task-e', agentName: 'explore', description: 'Locate parser files' });
  const t1 = call('m1', 'task', { agent_name: 'general', prompt: 'Review the parser', description: 'Review the parser' });
  const t2 = call('g1', 'task', { agent_name: 'explore', prompt: 'Locate parser files', description: 'Locate parser files' });
  const events = [
    main.start('Review the parser'),
    ...main.reason(1, '', { toolCalls: [t1] }),
    main.actionStart(1, [t1]),
    main.toolStart(1, t1),
    child.start('Review the parser'),
    ...child.reason(1, 'Let me find the files.', { toolCalls: [t2] }),
    child.actionStart(1, [t2]),
    child.toolStart(1, t2),
    grandchild.start('Locate parser files'),
    ...grandchild.toolStep(1, call('e1', 'glob', { pattern: 'src/**/parse*.ts' }), 'src/parse.ts'),
    ...grandchild.reason(2, 'Found src/parse.ts.'),
    grandchild.end('Found src/parse.ts.', { tokens: 150, steps: 2 }),
    child.toolEnd(1, t2, '<task_result>…</task_result>'),
    child.actionEnd(1),
    ...child.reason(2, 'The parser looks fine.'),
    child.end('The parser looks fine.', { tokens: 400, tasks: 1, steps: 2 }),
    main.toolEnd(1, t1, '<task_result>…</task_result>'),
    main.actionEnd(1),
    ...main.reason(2, 'The parser is fine.'),
    main.end('The parser is fine.', { tokens: 900, tasks: 2, steps: 2 }),
  ];
  return { events, main, child, grandchild };
}
