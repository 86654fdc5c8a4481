/**
 * rxharness: a TypeScript agent harness on RxJS. An agent is a ReAct loop over an
 * OpenAI-compatible chat model; every run is an `Observable<AgentEvent>`; a main agent
 * delegates bounded subtasks to isolated subagents through `task` and `multitask`, and
 * every child event reaches a streaming consumer wrapped in a `TaskWrap`.
 *
 * The layers, bottom to top: events, model, session, tools, permission, agent, subagent,
 * delegation, engine, adapters. This entry exports what applications use; the
 * folders' own `index.ts` files hold a few more internals.
 *
 * @packageDocumentation
 */

// Events: the stream's vocabulary, guards and consumer operators.
export * from './events/index.js';

// Models.
export * from './model/index.js';
export { createDemoModel } from './demo/demo-model.js';

// Sessions.
export { FileSessionStore, MemorySessionStore, UnsafeLinkError, type MemorySessionStoreOptions } from './session/index.js';
export type { MaybePromise, SessionStore, TaskSessionInfo } from './session/index.js';

// Tools.
export type { Tool, ToolContext, ToolResult } from './tools/tool.js';
export { resolveWorkspacePath, type WorkspacePath } from './tools/workspace-path.js';
export {
  createBashTool,
  createBuiltinTools,
  createEditTool,
  createGlobTool,
  createGrepTool,
  createListTool,
  createReadTool,
  createTodoTool,
  createWriteTool,
  PUBLIC_TOOL_NAMES,
  type BashArgs,
  type BashToolOptions,
  type BuiltinToolName,
  type EditArgs,
  type GlobArgs,
  type GlobToolOptions,
  type GrepArgs,
  type GrepToolOptions,
  type ListArgs,
  type ListToolOptions,
  type ReadArgs,
  type ReadToolOptions,
  type TodoArgs,
  type WriteArgs,
} from './tools/builtin/index.js';

// Permissions and approval.
export {
  DEFAULT_RULES,
  evaluateRules,
  InvalidPermissionRuleError,
  parsePermissionRules,
  PermissionPolicy,
  type ApprovalDecision,
  type ApprovalHandler,
  type ApprovalRequest,
  type PermissionAction,
  type PermissionDecision,
  type PermissionPolicyOptions,
  type PermissionRule,
} from './permission/index.js';

// The ReAct agent.
export * from './agent/index.js';

// Subagent definitions.
export {
  AGENT_NAME_PATTERN,
  AgentManager,
  builtinAgentsDir,
  defineAgent,
  DefinitionError,
  DELEGATION_TOOL_NAMES,
  discoverAgents,
  formatAgentMarkdown,
  narrowTools,
  parseAgentMarkdown,
  standardAgentDirs,
  UnknownAgentError,
  type AgentDefinition,
  type AgentDiagnostic,
  type AgentDir,
  type AgentInput,
  type AgentManagerOptions,
  type AgentOrigin,
  type AgentSource,
  type DiscoveryResult,
  type NarrowToolsInput,
  type StandardAgentDirsOptions,
} from './subagent/index.js';

// Delegation results and the task tracker.
export {
  formatMultitaskResults,
  formatTaskResult,
  TaskTracker,
  type TaskInfo,
  type TaskOutcome,
  type TaskResultFields,
  type TaskState,
} from './delegation/index.js';

// The engine.
export { HarnessEngine, type HarnessEngineOptions } from './engine/index.js';

// Adapters.
export * from './adapters/index.js';

// Asking a human at a terminal (what the CLI uses).
export { terminalApproval, type ApprovalTerminal } from './cli/terminal-approval.js';
