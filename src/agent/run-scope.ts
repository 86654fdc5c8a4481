import { isAbsolute } from 'node:path';
import type { Context } from '@opentelemetry/api';
import type { AgentEvent } from '../events/agent-event.js';
import type { RunMetrics } from '../events/run-metrics.js';
import type { ToolSpec } from '../model/chat-model.js';
import type { Tool, ToolContext } from '../tools/tool.js';
import type { AgentScope } from './agent-scope.js';
import type { RunState } from './run-state.js';
import { MemoryTokenBudget } from '../model/memory-token-budget.js';
import type { TokenBudget } from '../model/token-budget.js';
import { toolSpecsReader } from './tool-specs.js';
import { trustEmit } from './trusted-emit.js';

/** One run's input. */
export interface RunInput {
  readonly prompt: string;
  readonly sessionId: string;
  /** True when the caller gave no session: nothing is loaded or stored, the run stands alone. */
  readonly ephemeral: boolean;
  /** True under `stream()`: deltas are emitted and tools may forward events. */
  readonly streaming: boolean;
  /** The run's id when it must be known before the run starts (`engine.start()`); else a fresh one. */
  readonly runId?: string;
  /** This run's token budget, when the caller gave one (it wins over the agent's). */
  readonly tokenBudget?: number;
  /**
   * Handed a reader of the run's metrics so far when the run starts: a task cancelled before
   * its `RunEnd` still counts what its child spent (see `runChild$`).
   */
  readonly meter?: (read: () => RunMetrics) => void;
}

/**
 * Everything the parts of one run share: the agent's scope, the run's state and input, and
 * its tools. Each tool call's {@link ToolContext} is derived from it ({@link toolContextOf}).
 */
export interface RunScope {
  readonly agent: AgentScope;
  readonly run: RunState;
  readonly input: RunInput;
  /** The conversation this run serves: its own session, or the tree's for a delegated agent. */
  readonly rootSessionId: string;
  /** The run at the top of the tree: its own id, or the main agent's run for a delegated agent. */
  readonly rootRunId: string;
  readonly tools: ReadonlyMap<string, Tool>;
  /** What this run and its tasks may still use, when a budget applies (see {@link budgetOf}). */
  readonly budget: TokenBudget | undefined;
  /**
   * What the model is offered, read again at every step: a tool's description or schema may
   * change during a run (`task` lists an agent that `generate` has just made). The same
   * array while nothing changed ({@link toolSpecsReader}).
   */
  toolSpecs(): readonly ToolSpec[];
}

/** The scope of a run about to take its first step. */
export function runScopeOf(agent: AgentScope, run: RunState, input: RunInput, tools: readonly Tool[]): RunScope {
  const byName = new Map<string, Tool>();
  for (const t of tools) byName.set(t.name, t);
  return {
    agent,
    run,
    input,
    rootSessionId: agent.task?.rootSessionId ?? input.sessionId,
    rootRunId: agent.task?.rootRunId ?? run.runId,
    tools: byName,
    budget: budgetOf(agent, input),
    toolSpecs: toolSpecsReader(tools),
  };
}

/**
 * A run's budget: the run's own (given with the run, else the agent's), within its parent's
 * remainder for a delegated task; `undefined` when no budget applies anywhere above.
 */
export function budgetOf(agent: AgentScope, input: RunInput): TokenBudget | undefined {
  const own = input.tokenBudget ?? agent.tokenBudget;
  const parent = agent.task?.parentBudget;
  if (parent) return parent.child(own);
  if (own === undefined) return undefined;
  return agent.newBudget?.(own) ?? new MemoryTokenBudget(own);
}

/** The two ways a call's context emits: checked (`emit`, what a tool gets) and trusted (the harness's own tools). */
export interface CallEmits {
  readonly emit: (event: AgentEvent) => void;
  readonly trustedEmit: (event: AgentEvent) => void;
}

/**
 * What one tool call of the run knows: derived from the run's scope, nothing copied by hand.
 * Its `emit` is the checked one; the trusted one is kept for the harness's own tools (`trustedEmit`).
 */
export function toolContextOf(scope: RunScope, step: number, callId: string, signal: AbortSignal, emits: CallEmits, traceContext?: Context, judgedPaths?: readonly string[]): ToolContext {
  const context = contextOf(scope, step, callId, signal, emits.emit, traceContext, judgedPaths);
  trustEmit(context, emits.trustedEmit);
  return context;
}

function contextOf(scope: RunScope, step: number, callId: string, signal: AbortSignal, emit: (e: AgentEvent) => void, traceContext?: Context, judgedPaths?: readonly string[]): ToolContext {
  const { run, agent } = scope;
  return {
    signal,
    workspace: agent.workspace,
    callId,
    step,
    runId: run.runId,
    sessionId: run.sessionId,
    rootSessionId: scope.rootSessionId,
    rootRunId: scope.rootRunId,
    agentName: run.agentName,
    ...(agent.task ? { taskId: agent.task.taskId } : {}),
    background: agent.task?.background ?? false,
    streaming: scope.input.streaming,
    emit,
    addMetrics: (m) => run.addMetrics(m),
    ...(scope.budget ? { budget: scope.budget } : {}),
    ...(traceContext ? { traceContext } : {}),
    ...(judgedPaths ? { judgedPaths } : {}),
    // Searches judge every file they would read or list by the rules that judged the call,
    // so a path rule cannot be dodged by searching the folder above it.
    judgePath: (toolName, path) => {
      const { permissions, grants } = agent;
      // Inside paths come relative. Only this system's absolute form is outside: on Linux a
      // folder `C:` or a file `\setup.js` is a name like any other (`path.isAbsolute`).
      const outside = isAbsolute(path);
      if (outside && !permissions.allowsOutsideWorkspace(toolName, path)) return 'deny';
      const { action } = permissions.evaluate(toolName, path);
      return action === 'ask' && grants.has(scope.rootSessionId, toolName, path) ? 'allow' : action;
    },
  };
}
