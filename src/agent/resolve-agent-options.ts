import { checkModelSettings } from '../model/model-settings.js';
import { PermissionPolicy } from '../permission/permission-policy.js';
import { MemorySessionStore } from '../session/memory-session-store.js';
import { ApprovalGrants } from './approval-grants.js';
import type { PerRun, ReActAgentOptions } from './agent-options.js';
import { resolveWorkspace } from './resolve-workspace.js';
import type { AgentSettings, RunSetup } from './run-env.js';

const DEFAULT_MAX_STEPS = 30;
const DEFAULT_TOOL_TIMEOUT_MS = 10 * 60_000;

/** An agent's options checked and completed with defaults. */
export interface ResolvedAgent {
  readonly settings: AgentSettings;
  readonly setup: RunSetup;
}

/** Checks options and applies defaults; throws an error naming the bad option. */
export function resolveAgentOptions(options: ReActAgentOptions): ResolvedAgent {
  const model = options?.model;
  if (!model || typeof model.stream !== 'function') {
    throw new TypeError('ReActAgent: `model` must be a ChatModel (e.g. new OpenAIChatModel({ model: "gpt-4o-mini" }))');
  }
  const settings: AgentSettings = {
    name: options.name ?? 'main',
    model,
    modelSettings: options.settings === undefined ? undefined : checkModelSettings(options.settings, 'ReActAgent'),
    maxSteps: positiveInteger(options.maxSteps, DEFAULT_MAX_STEPS, 'maxSteps'),
    sessions: options.sessions ?? new MemorySessionStore(),
    workspace: resolveWorkspace(options.workspace),
    permissions: options.permissions ?? new PermissionPolicy(),
    approve: options.approve,
    grants: options.grants ?? new ApprovalGrants(),
    toolTimeoutMs: positiveInteger(options.toolTimeoutMs, DEFAULT_TOOL_TIMEOUT_MS, 'toolTimeoutMs'),
    taskId: options.taskId,
    background: options.background ?? false,
    rootSessionId: options.rootSessionId,
  };
  const setup: RunSetup = { instructions: perRun(options.instructions ?? ''), tools: perRun(options.tools ?? []), promptPrefix: options.promptPrefix, onRunEnd: options.onRunEnd };
  return { settings, setup };
}

function perRun<T>(value: PerRun<T>): () => T | Promise<T> {
  return typeof value === 'function' ? (value as () => T | Promise<T>) : () => value;
}

function positiveInteger(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) {
    throw new RangeError(`ReActAgent: \`${name}\` must be a positive integer, got ${String(value)}`);
  }
  return value;
}
