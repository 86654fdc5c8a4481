/**
 * rxharness: a TypeScript agent harness on RxJS. An agent is a ReAct loop over an
 * OpenAI-compatible chat model; every run is an `Observable<AgentEvent>`; a main agent
 * delegates bounded subtasks to isolated subagents through `task` and `multitask`, and
 * every child event reaches a streaming consumer wrapped in a `TaskWrap`.
 *
 * This entry exports, by name, what applications use; everything else is internal (see
 * docs/architecture.md). test/architecture/public-api.test.ts holds the reviewed list.
 *
 * @module rxharness
 */

// The engine: the composition root most applications start from.
export { HarnessEngine } from './engine/harness-engine.js';
export type { HarnessEngineOptions } from './engine/engine-options.js';
export type { SubagentBuilder } from './engine/subagent-builder.js';
export type { McpHttpServerConfig, McpServerConfig, McpStdioServerConfig } from './mcp/mcp-server-config.js';
export type { RemoteA2AOptions, RemoteA2ARequest } from './delegation/a2a/remote-a2a-options.js';
export type { TaskTracker, TaskInfo, TaskState } from './delegation/task-tracker.js';
export type { TaskTrackerLimits } from './delegation/task-tracker-limits.js';
export type { DroppedResults } from './delegation/undelivered-results.js';
export type { AgentManager } from './subagent/agent-manager.js';

// A single agent, its runs and their results.
export { ReActAgent } from './agent/react-agent.js';
export type { PerRun, ReActAgentOptions } from './agent/agent-options.js';
export type { RunOptions, RunResult } from './agent/run-types.js';

// Runs as resources: started, attachable, resumable.
export type { RunHandle, RunRegistry } from './runs/run-registry.js';
export type { LogCancelled, LogComplete, LogEnding, LogFailed, PendingApproval, RunInfo, RunState, SequencedEvent } from './runs/run-types.js';
export type { EventLog } from './runs/event-log.js';
export { MemoryEventLog } from './runs/memory-event-log.js';
export { UnknownRunError } from './runs/unknown-run-error.js';

// Scaling out: sessions, runs, event logs and approvals in Redis; delegated tasks on
// workers pulling from a BullMQ queue (both optional peers, loaded on first use).
export { redisBackend, type RedisBackend, type RedisBackendOptions } from './backend/redis-backend.js';
export { HarnessWorker, type HarnessWorkerOptions } from './backend/harness-worker.js';
export type { RedisSessionStore } from './backend/redis-session-store.js';
export type { RedisEventLog } from './backend/redis-event-log.js';
export { RedisBackendError } from './backend/redis-backend-error.js';
export { RemoteTaskError } from './backend/remote-task-error.js';
export type { HarnessBackend } from './engine/harness-backend.js';

// Runs over HTTP: start, follow (server-sent events, resumable), cancel, approve. The
// browser side is the `rxharness/client` entry.
export { runsHandler, type RunsEngine, type RunsRequestHandler } from './http/runs-handler.js';
export type { RunsAuthorizer, RunsHandlerOptions } from './http/runs-handler-options.js';

// Events: the stream's vocabulary, guards and consumer operators.
export type {
  ActionEndEvent,
  ActionStartEvent,
  AgentEvent,
  AgentEventType,
  BudgetEvent,
  CompactionEvent,
  ContextSizeEvent,
  EventBase,
  EventOfType,
  HITLDecidedEvent,
  HITLPendingEvent,
  PlanEvent,
  ReasonDeltaEvent,
  ReasonEndEvent,
  ReasonStartEvent,
  RunCancelledEvent,
  RunEndEvent,
  RunStartEvent,
  StepUsage,
  TaskQueuedEvent,
  TaskWrapEvent,
  TodoItem,
  ToolCallEndEvent,
  ToolCallInfo,
  ToolCallStartEvent,
  WarningEvent,
} from './events/agent-event.js';
export type { JsonObject, JsonValue } from './events/json.js';
export type { RunMetrics } from './events/run-metrics.js';
// (No isEventType: comparing `event.type` narrows the same.)
export { isAgentEvent, isRunEnd, isTaskWrap } from './events/guards.js';
export { eventText } from './events/event-text.js';
export { ofEventType } from './events/operators/of-event-type.js';
export { terminalRunEnd } from './events/operators/terminal-run-end.js';
export { unwrapEvent, unwrapTaskEvents, type TaskFrame, type UnwrappedEvent } from './events/operators/unwrap-task-events.js';

// Models.
export type {
  ChatModel,
  ChatRequest,
  FinishReason,
  ModelChunk,
  ModelFinish,
  ModelTextDelta,
  ModelThinkingDelta,
  ModelToolCall,
  ModelWarning,
  RequestSender,
  TokenUsage,
  ToolSpec,
} from './model/chat-model.js';
export type { AssistantMessage, ChatMessage, ChatToolCall, SystemMessage, ToolMessage, UserMessage } from './model/chat-message.js';
export type { ModelSettings, NamedToolChoice } from './model/model-settings.js';
export type { TokenBudget } from './model/token-budget.js';
export { OpenAIChatModel, type OpenAIChatModelOptions } from './model/openai-chat-model.js';
export {
  ScriptedModel,
  type ScriptedModelOptions,
  type ScriptedReply,
  type ScriptedResponder,
  type ScriptedToolCall,
} from './model/scripted-model.js';
export { createDemoModel } from './demo/demo-model.js';

// Sessions.
export type { ApprovalGrant, MaybePromise, SessionListRequest, SessionPosition, SessionStore, SessionSummary, TaskSessionInfo } from './session/session-store.js';
export type { ClaimGranted, ClaimRefused, SessionClaim } from './session/session-claim.js';
export { MemorySessionStore, type MemorySessionStoreOptions } from './session/memory-session-store.js';
export { FileSessionStore } from './session/file-session-store.js';

// Tools.
export type { Tool, ToolContext, ToolResult } from './tools/tool.js';
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

// Typed tools: one schema (zod, valibot, TypeBox or JSON schema) gives the model its
// schema, checks each call and types `execute`.
export { defineTool, type ToolDefinition } from './tools/define-tool.js';
export type { InferToolArgs, JsonSchemaSideMissing, StandardToolSchema, UsableToolInput } from './tools/tool-input.js';

// Permissions and approval.
export type { PermissionAction, PermissionRule, PermissionRuleInput, SolonPermissionRule } from './permission/permission-rule.js';
export type { ApprovalDecision, ApprovalHandler, ApprovalRequest } from './permission/approval.js';
export { parsePermissionRules } from './permission/parse-permission-rules.js';
export { PermissionPolicy, type PermissionPolicyOptions } from './permission/permission-policy.js';
export type { PermissionDecision } from './permission/evaluate-rules.js';

// Subagent definitions.
export type { AgentDefinition, AgentOrigin, AgentSource } from './subagent/agent-definition.js';
export type { AgentDiagnostic } from './subagent/agent-diagnostic.js';
export { defineAgent, type AgentInput } from './subagent/define-agent.js';
export { parseAgentMarkdown } from './subagent/parse-agent-markdown.js';
export { formatAgentMarkdown } from './subagent/format-agent-markdown.js';

// Adapters: operators in `pipe`, and sinks that take the stream first.
export type {
  ApprovalDecidedItem,
  ApprovalPendingItem,
  PlanItem,
  ResultItem,
  RunStartItem,
  TaskCancelledItem,
  TaskEndItem,
  TaskQueuedItem,
  TaskStartItem,
  TextDeltaItem,
  ThinkingDeltaItem,
  ToolEndItem,
  ToolStartItem,
  UiChildItemBase,
  UiItem,
  UiItemBase,
  UiItemKind,
  UiTaskFields,
  WarningItem,
  BudgetItem,
  CompactionItem,
} from './adapters/ui-item.js';
export { toUiItem, toUiItems } from './adapters/ui-dto.js';
export { toNdjson, writeNdjson, type WriteNdjsonOptions } from './adapters/ndjson.js';
export { parseNdjson, type ParseNdjsonOptions } from './adapters/parse-ndjson.js';
export { streamSse, sseHandler, type SseOptions } from './adapters/sse.js';
export { toAsyncIterable, type AsyncIterableOptions } from './adapters/async-iterable.js';
export { liveTree, type LiveTreeOptions, type LiveTreeOutput } from './adapters/terminal-tree/live-tree.js';
export { terminalApproval, type ApprovalTerminal } from './adapters/terminal-approval.js';

// Errors: each has a stable `name` and `code`, and a cross-realm `isInstance`.
export { RxHarnessError } from './errors/rxharness-error.js';
export { AbortError } from './errors/abort-error.js';
export { SessionBusyError } from './agent/session-busy-error.js';
export { InvalidWorkspaceError } from './agent/invalid-workspace-error.js';
export { EngineClosedError } from './engine/engine-closed-error.js';
export { ModelError } from './model/model-error.js';
export { DefinitionError } from './subagent/definition-error.js';
export { UnknownAgentError } from './subagent/unknown-agent-error.js';
export { InvalidPermissionRuleError } from './permission/invalid-permission-rule-error.js';
export { UnsafeLinkError } from './session/unsafe-link-error.js';
export { UnsealedSessionError } from './session/unsealed-session-error.js';
export { NotRegularFileError, type SpecialFileKind } from './session/not-regular-file-error.js';
export { SessionFileTooLargeError } from './session/session-file-too-large-error.js';
export { DeletedConversationError } from './session/deleted-conversation-error.js';
export { NdjsonParseError } from './adapters/ndjson-parse-error.js';
export { BufferOverflowError } from './adapters/buffer-overflow-error.js';
