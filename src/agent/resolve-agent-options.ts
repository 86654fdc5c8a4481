import { checkModelSettings } from '../model/model-settings.js';
import { PermissionPolicy } from '../permission/permission-policy.js';
import { MAX_TIMER_MS } from '../validation/max-timer.js';
import { MemorySessionStore } from '../session/memory-session-store.js';
import { ApprovalGrants } from './approval-grants.js';
import type { PerRun, ReActAgentOptions } from './agent-options.js';
import type { AgentScope } from './agent-scope.js';
import { DEFAULT_MAX_STEPS, DEFAULT_TOOL_TIMEOUT_MS } from './defaults.js';
import { resolveWorkspace } from './resolve-workspace.js';

const KNOWN: ReadonlySet<string> = new Set(['name', 'model', 'instructions', 'tools', 'settings', 'maxSteps', 'sessions', 'workspace', 'permissions', 'approve', 'toolTimeoutMs', 'tokenBudget']);

/**
 * A plain agent's scope: its options checked (a bad or unknown one throws, naming it) and
 * completed with the defaults. A plain agent is its own tree: no task, no hooks.
 */
export function scopeOfOptions(options: ReActAgentOptions): AgentScope {
  const model = options?.model;
  if (!model || typeof model.stream !== 'function') {
    throw new TypeError('ReActAgent: `model` must be a ChatModel (e.g. new OpenAIChatModel({ model: "gpt-4o-mini" }))');
  }
  const unknown = Object.keys(options).filter((key) => !KNOWN.has(key));
  if (unknown.length > 0) {
    throw new TypeError(`ReActAgent: unknown option ${unknown.map((k) => `"${k}"`).join(', ')}; known options: ${[...KNOWN].join(', ')}`);
  }
  return {
    name: options.name ?? 'main',
    model,
    modelSettings: options.settings === undefined ? undefined : checkModelSettings(options.settings, 'ReActAgent'),
    maxSteps: positiveInteger(options.maxSteps, DEFAULT_MAX_STEPS, 'maxSteps'),
    instructions: perRun(options.instructions ?? ''),
    tools: perRun(options.tools ?? []),
    sessions: options.sessions ?? new MemorySessionStore(),
    workspace: resolveWorkspace(options.workspace),
    permissions: options.permissions ?? new PermissionPolicy(),
    approve: options.approve,
    grants: new ApprovalGrants(),
    toolTimeoutMs: timerMs(options.toolTimeoutMs, DEFAULT_TOOL_TIMEOUT_MS, 'toolTimeoutMs'),
    tokenBudget: options.tokenBudget === undefined ? undefined : positiveInteger(options.tokenBudget, 0, 'tokenBudget'),
    task: undefined,
    promptPrefix: undefined,
    onRun: undefined,
  };
}

/** A value or a function of the run, as a function. */
export function perRun<T>(value: PerRun<T>): () => T | Promise<T> {
  return typeof value === 'function' ? (value as () => T | Promise<T>) : () => value;
}

function positiveInteger(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) {
    throw new RangeError(`ReActAgent: \`${name}\` must be a positive integer, got ${String(value)}`);
  }
  return value;
}

/** A count of milliseconds a timer is armed with: above MAX_TIMER_MS Node would fire it after 1 ms. */
function timerMs(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1 || value > MAX_TIMER_MS) {
    throw new RangeError(`ReActAgent: \`${name}\` must be an integer of milliseconds from 1 to ${MAX_TIMER_MS} (the longest a timer holds, about 24.8 days), got ${String(value)}`);
  }
  return value;
}
