import type { ChatModel } from '../model/chat-model.js';
import type { ModelSettings } from '../model/model-settings.js';
import { MemoryTokenBudget } from '../model/memory-token-budget.js';
import type { SharedBudget, TokenBudget } from '../model/token-budget.js';
import { PermissionPolicy, type PermissionPolicyOptions } from '../permission/permission-policy.js';
import { contextOfCarrier, traceCarrierOf, type TraceCarrier } from '../telemetry/trace-carrier.js';
import type { PermissionRule } from '../permission/permission-rule.js';
import type { AgentSpec } from '../delegation/delegation-types.js';
import { isKnownToolName, type ToolNarrowing } from '../subagent/narrow-tools.js';
import { RemoteTaskError } from './remote-task-error.js';
import { WorkerBoundPolicy } from './worker-bound-policy.js';

/** One layer of a permission policy, as data. */
interface WirePolicy {
  readonly rules: readonly PermissionRule[];
  readonly agentRules: readonly PermissionRule[];
  readonly defaults: readonly PermissionRule[];
  readonly narrowOnly: boolean;
}

/**
 * An `AgentSpec` as JSON, for a worker to rebuild: models by name (the worker has its own
 * clients), the policy as its chain of rule layers (root first), the task's wiring without
 * its live objects (the parent's token budget as its pool's nodes in Redis, which the worker
 * draws from too; the delegating call's span as its W3C identity, so the trace continues on
 * the worker).
 */
export interface WireSpec {
  readonly name: string;
  readonly depth: number;
  /** `''`: the main model; else a key of `models`. */
  readonly model: string;
  readonly settings?: ModelSettings;
  readonly instructions: string;
  readonly toolNames: readonly string[];
  readonly mcpNarrowing?: readonly ToolNarrowing[];
  readonly policy: readonly WirePolicy[];
  readonly maxSteps: number;
  readonly tokenBudget?: number;
  readonly task?: {
    readonly taskId: string;
    readonly rootSessionId: string;
    readonly rootRunId: string;
    readonly background: boolean;
    /** The parent's budget, counted in Redis: the worker's child draws from the same pool. */
    readonly budget?: SharedBudget;
    /**
     * What the parent's budget had left, for a budget counted in the launcher's memory only
     * (a snapshot: the child cannot share it; absent: no parent budget, or no limit).
     */
    readonly parentRemaining?: number;
    /** The delegating tool call's span (absent without an OpenTelemetry SDK). */
    readonly trace?: TraceCarrier;
  };
}

/** The models a spec's model is named among, and how a worker joins a shared budget's pool. */
export interface ModelNames {
  readonly model: ChatModel;
  readonly models: Readonly<Record<string, ChatModel>>;
  /** The budget a worker's child draws from, for a pool in Redis (absent: a parent's budget is not rebuilt). */
  readonly attachBudget?: (shared: SharedBudget) => TokenBudget;
  /**
   * The worker's own rules (see `workerRulesPolicy`): the outer layer of every policy it
   * rebuilds, which the job's layers only narrow (absent: the job's policy as sent).
   */
  readonly workerRules?: PermissionPolicy;
  /**
   * The names of the worker's own tools (its tree's `knownTools`, MCP servers' as globs; absent: not checked). A job
   * naming others fails at once, as one naming a model the worker lacks does: its child would
   * otherwise run without them, its model never offered them.
   */
  readonly tools?: readonly string[];
}

/** The spec as JSON-safe data. @throws RemoteTaskError when its model has no name a worker could find. */
export function toWire(spec: AgentSpec, names: ModelNames): WireSpec {
  const layers: WirePolicy[] = [];
  for (let p: PermissionPolicy | undefined = spec.policy; p; p = p.parent) {
    layers.unshift({ rules: p.rules, agentRules: p.agentRules, defaults: p.defaults, narrowOnly: p.narrowOnly });
  }
  const task = spec.task;
  const shared = task?.parentBudget?.shared;
  const remaining = shared ? undefined : task?.parentBudget?.remaining();
  const carried = traceCarrierOf(task?.traceContext);
  return {
    name: spec.name,
    depth: spec.depth,
    model: modelName(spec, names),
    ...(spec.settings ? { settings: spec.settings } : {}),
    instructions: spec.instructions,
    toolNames: spec.toolNames,
    ...(spec.mcpNarrowing ? { mcpNarrowing: spec.mcpNarrowing } : {}),
    policy: layers,
    maxSteps: spec.maxSteps,
    ...(spec.tokenBudget !== undefined ? { tokenBudget: spec.tokenBudget } : {}),
    ...(task
      ? {
          task: {
            taskId: task.taskId,
            rootSessionId: task.rootSessionId,
            rootRunId: task.rootRunId,
            background: task.background,
            ...(shared ? { budget: { nodes: shared.nodes, remaining: shared.remaining } } : {}),
            ...(remaining !== undefined && Number.isFinite(remaining) ? { parentRemaining: Math.max(0, remaining) } : {}),
            ...(carried ? { trace: carried } : {}),
          },
        }
      : {}),
  };
}

/**
 * The spec a worker runs, with its own models, its policy bounded by the worker's own rules.
 * @throws RemoteTaskError when it lacks the model named.
 */
export function fromWire(wire: WireSpec, names: ModelNames): AgentSpec {
  const bound = names.workerRules;
  // The job is data from the queue: its layers never widen what the worker's rules allow.
  const layerOf = (options: PermissionPolicyOptions): PermissionPolicy => (bound ? new WorkerBoundPolicy(options, bound) : new PermissionPolicy(options));
  let policy: PermissionPolicy | undefined;
  for (const layer of wire.policy) policy = layerOf({ ...layer, ...(policy ? { parent: policy } : {}) });
  const model = wire.model === '' ? names.model : Object.hasOwn(names.models, wire.model) ? names.models[wire.model] : undefined;
  if (!model) throw new RemoteTaskError(`the worker has no model "${wire.model}" (models: ${Object.keys(names.models).join(', ') || 'none'})`);
  // An MCP tool's name counts as known when the worker has its server (`mcp__<server>__*`).
  const missing = names.tools ? wire.toolNames.filter((n) => !isKnownToolName(n, names.tools!)) : [];
  if (missing.length > 0) throw new RemoteTaskError(missingTools(wire.name, missing));
  const { task, model: _name, policy: _policy, ...rest } = wire;
  const { parentRemaining, budget, trace, ...wiring } = task ?? { parentRemaining: undefined, budget: undefined, trace: undefined };
  const parentBudget = budget
    ? (names.attachBudget?.(budget) ?? new MemoryTokenBudget(budget.remaining))
    : parentRemaining !== undefined
      ? new MemoryTokenBudget(parentRemaining)
      : undefined;
  const traceContext = contextOfCarrier(trace);
  return {
    ...rest,
    model,
    policy: policy ?? layerOf({}),
    ...(task
      ? {
          task: {
            ...(wiring as Omit<NonNullable<WireSpec['task']>, 'parentRemaining' | 'budget' | 'trace'>),
            ...(parentBudget ? { parentBudget } : {}),
            ...(traceContext ? { traceContext } : {}),
          },
        }
      : {}),
  };
}

function modelName(spec: AgentSpec, names: ModelNames): string {
  if (spec.model === names.model) return '';
  const found = Object.entries(names.models).find(([, model]) => model === spec.model);
  if (found) return found[0];
  throw new RemoteTaskError(`the model of agent "${spec.name}" is neither the engine's model nor one of its \`models\`, so no worker can find it`);
}

/** Why a job naming tools the worker lacks is not run, and what to do about it. */
function missingTools(agent: string, missing: readonly string[]): string {
  const names = missing.map((n) => `"${n}"`).join(', ');
  return (
    `agent "${agent}" needs tools this worker does not have: ${names} (registered on the engine that delegated the task, ` +
    'not on the worker, or disabled there). Register the same tools on every worker (HarnessWorker\'s `tools` and `mcpServers` options), ' +
    'or take them from the agent (`disallowedTools` in its definition)'
  );
}
