/**
 * Conversation messages in the OpenAI chat wire format, so a session can be sent to an
 * OpenAI-compatible server as it is and stored as JSON without conversion.
 *
 * @module
 */

/** A tool call inside an assistant message. */
export interface ChatToolCall {
  readonly id: string;
  readonly type: 'function';
  readonly function: { readonly name: string; readonly arguments: string };
}

/** The system prompt. */
export interface SystemMessage {
  readonly role: 'system';
  readonly content: string;
}

/** A user turn. */
export interface UserMessage {
  readonly role: 'user';
  readonly content: string;
}

/** A model turn: text, tool calls, or both. */
export interface AssistantMessage {
  readonly role: 'assistant';
  readonly content: string | null;
  readonly tool_calls?: readonly ChatToolCall[];
}

/** The result of one tool call, answering the call with the same id. */
export interface ToolMessage {
  readonly role: 'tool';
  readonly tool_call_id: string;
  readonly content: string;
}

/** Any message of a conversation. */
export type ChatMessage = SystemMessage | UserMessage | AssistantMessage | ToolMessage;
