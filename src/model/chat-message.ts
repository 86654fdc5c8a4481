/**
 * Conversation messages in the OpenAI chat wire format, so a session can be sent to an
 * OpenAI-compatible server as it is and stored as JSON without conversion.
 *
 * @module
 */

/** A tool call inside an assistant message. */
export interface ChatToolCall {
  /** The model's id for the call; the `ToolMessage` that answers it repeats it. */
  readonly id: string;
  /** Always `function`, the only kind of tool call. */
  readonly type: 'function';
  /** Which tool to run and with what. */
  readonly function: {
    /** The tool's name. */
    readonly name: string;
    /** The arguments as the model wrote them: JSON text, unparsed and possibly invalid. */
    readonly arguments: string;
  };
}

/** The system prompt. */
export interface SystemMessage {
  /** Marks a system message. */
  readonly role: 'system';
  /** The instructions. */
  readonly content: string;
}

/** A user turn. */
export interface UserMessage {
  /** Marks a user message. */
  readonly role: 'user';
  /** The prompt. */
  readonly content: string;
}

/** A model turn: text, tool calls, or both. */
export interface AssistantMessage {
  /** Marks a model message. */
  readonly role: 'assistant';
  /** The model's text; `null` when it only called tools. */
  readonly content: string | null;
  /** The tools the model asked to run; absent when it answered in text only. */
  readonly tool_calls?: readonly ChatToolCall[];
}

/** The result of one tool call, answering the call with the same id. */
export interface ToolMessage {
  /** Marks a tool result. */
  readonly role: 'tool';
  /** The `id` of the call this answers. */
  readonly tool_call_id: string;
  /** What the model reads: the tool's output, or why the call failed. */
  readonly content: string;
}

/** Any message of a conversation. */
export type ChatMessage = SystemMessage | UserMessage | AssistantMessage | ToolMessage;
