/**
 * `rxharness/protocols`: the engine spoken in the protocols agent frontends and other agents
 * already use — AG-UI (CopilotKit and others), the AI SDK's UI message stream (`useChat`)
 * and A2A. Each protocol has an operator from our events to its events and a `(req, res)`
 * handler for Node's `http`, Express and Fastify that honours the same bearer token,
 * concurrent-run cap and busy-session rule as `runsHandler`.
 *
 * See docs/protocols.md.
 *
 * @module rxharness/protocols
 */

// Shared by the protocol handlers.
export type { ProtocolHandlerOptions } from './protocol-options.js';
export type { ProtocolRequestHandler } from './protocol-route.js';
export type { ProtocolEngine } from './protocol-engine.js';

// AG-UI.
export { toAgUiEvents, type ToAgUiEventsOptions } from './ag-ui/to-ag-ui-events.js';
export { agUiHandler, type AgUiEngine, type AgUiHandlerOptions } from './ag-ui/ag-ui-handler.js';

// The AI SDK UI message stream.
export { toUiMessageStream } from './ui-message-stream/to-ui-message-stream.js';
export { chatHandler } from './ui-message-stream/chat-handler.js';
export type {
  ApprovalProgress,
  TaskProgress,
  UiApprovalChunk,
  UiDataChunk,
  UiDeltaChunk,
  UiErrorChunk,
  UiFinishChunk,
  UiMessageChunk,
  UiPartBoundaryChunk,
  UiStartChunk,
  UiStepChunk,
  UiTaskChunk,
  UiToolChunk,
} from './ui-message-stream/ui-message-chunk.js';

// A2A.
export { a2aHandler, AGENT_CARD_PATH } from './a2a/a2a-handler.js';
export type { A2AEngine, A2AHandlerOptions } from './a2a/a2a-handler-options.js';
export type { A2ACardOptions } from './a2a/agent-card.js';
export type { A2ASubtaskMetadata } from './a2a/run-updates.js';
export { RunSlots } from '../http/run-slots.js';
export {};
