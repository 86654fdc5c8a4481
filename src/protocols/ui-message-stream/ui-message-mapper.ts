import type { AgentEvent, HITLDecidedEvent, HITLPendingEvent, ReasonEndEvent, RunEndEvent } from '../../events/agent-event.js';
import type { JsonObject } from '../../events/json.js';
import { errorMessage } from '../../errors/error-message.js';
import { TaskProgressParts } from './task-progress.js';
import type { UiDataChunk, UiMessageChunk } from './ui-message-chunk.js';

/**
 * Translates one run's events into UI message stream chunks: one assistant message whose
 * steps are the main agent's ReAct steps (`start-step`/`finish-step`), with their text,
 * reasoning and tool calls (dynamic tool parts: input when the model asked for the call,
 * output or error when it ended); subagents as `data-task` parts updated in place;
 * approvals as `data-approval` parts. A subagent's text is not part of the message: its
 * answer is in its task part.
 */
export class UiMessageMapper {
  readonly #tasks = new TaskProgressParts();
  /** Open text or reasoning parts by id. */
  readonly #open = new Set<string>();
  /** Text parts that have had text. */
  readonly #shown = new Set<string>();
  #inStep = false;
  #started = false;

  /** The chunks of one of the run's events. */
  map(event: AgentEvent): UiMessageChunk[] {
    const out: UiMessageChunk[] = [];
    if (!this.#started) {
      this.#started = true;
      const metadata: JsonObject = event.type === 'RunStart' ? { runId: event.runId, sessionId: event.sessionId } : { runId: event.runId };
      out.push({ type: 'start', messageId: `msg_${event.runId}`, messageMetadata: metadata });
    }
    let inner = event;
    let taskId: string | undefined;
    while (inner.type === 'TaskWrap') {
      taskId = inner.taskId;
      inner = inner.event;
    }
    if (inner.type === 'HITLPending' || inner.type === 'HITLDecided') return [...out, approvalPart(inner, taskId)];
    if (event.type === 'TaskWrap' || event.type === 'TaskQueued') return [...out, ...this.#tasks.update(event)];
    switch (event.type) {
      case 'ReasonStart':
        if (this.#inStep) out.push({ type: 'finish-step' });
        this.#inStep = true;
        out.push({ type: 'start-step' });
        return out;
      case 'ReasonDelta': {
        if (event.text === '') return out;
        const thinking = event.kind === 'thinking';
        const id = `${thinking ? 'reasoning' : 'text'}_${event.runId}_${event.step}`;
        if (!this.#open.has(id)) {
          this.#open.add(id);
          this.#shown.add(id);
          out.push({ type: thinking ? 'reasoning-start' : 'text-start', id });
        }
        out.push({ type: thinking ? 'reasoning-delta' : 'text-delta', id, delta: event.text });
        return out;
      }
      case 'ReasonEnd':
        return [...out, ...this.#reasonEnd(event)];
      case 'ToolCallEnd':
        out.push(
          event.error === undefined
            ? { type: 'tool-output-available', toolCallId: event.callId, output: event.text, dynamic: true }
            : { type: 'tool-output-error', toolCallId: event.callId, errorText: event.text, dynamic: true },
        );
        return out;
      default:
        return out;
    }
  }

  /** The last chunks of a run that reached its own `RunEnd`: the open parts closed, `finish` (after `error` when it ended abnormally). */
  finish(end: RunEndEvent): UiMessageChunk[] {
    const out = this.#closeAll();
    if (end.abnormal) out.push({ type: 'error', errorText: end.error ?? 'the run failed' });
    const { promptTokens, completionTokens, totalTokens } = end.metrics;
    out.push({ type: 'finish', finishReason: end.abnormal ? 'error' : 'stop', messageMetadata: { runId: end.runId, usage: { promptTokens, completionTokens, totalTokens } } });
    return out;
  }

  /** The last chunk of a run whose stream failed (cancelled, refused, broken): `error`. */
  fail(error: unknown): UiMessageChunk[] {
    return [...(this.#started ? [] : [{ type: 'start' } as const]), { type: 'error', errorText: errorMessage(error) }];
  }

  #reasonEnd(event: ReasonEndEvent): UiMessageChunk[] {
    const out: UiMessageChunk[] = [];
    const reasoning = `reasoning_${event.runId}_${event.step}`;
    if (this.#open.delete(reasoning)) out.push({ type: 'reasoning-end', id: reasoning });
    const text = `text_${event.runId}_${event.step}`;
    if (!this.#shown.has(text) && event.text !== '') {
      // Not streamed (a model that answered in one piece): the whole text at once.
      out.push({ type: 'text-start', id: text }, { type: 'text-delta', id: text, delta: event.text });
      this.#open.add(text);
    }
    if (this.#open.delete(text)) out.push({ type: 'text-end', id: text });
    for (const call of event.toolCalls) {
      out.push({ type: 'tool-input-start', toolCallId: call.callId, toolName: call.name, dynamic: true });
      out.push({ type: 'tool-input-available', toolCallId: call.callId, toolName: call.name, input: call.args, dynamic: true });
    }
    return out;
  }

  #closeAll(): UiMessageChunk[] {
    const out: UiMessageChunk[] = [];
    for (const id of this.#open) out.push({ type: id.startsWith('reasoning_') ? 'reasoning-end' : 'text-end', id });
    this.#open.clear();
    if (this.#inStep) out.push({ type: 'finish-step' });
    this.#inStep = false;
    return out;
  }
}

/** An approval's part: pending with its question, then its decision under the same id. */
function approvalPart(event: HITLPendingEvent | HITLDecidedEvent, taskId: string | undefined): UiDataChunk {
  const task = taskId === undefined ? {} : { taskId };
  if (event.type === 'HITLPending') {
    return { type: 'data-approval', id: event.approvalId, data: { approvalId: event.approvalId, ...task, toolName: event.toolName, args: event.args, reason: event.reason, state: 'pending' } };
  }
  const note = event.comment === undefined ? {} : { reason: event.comment };
  return { type: 'data-approval', id: event.approvalId, data: { approvalId: event.approvalId, ...task, toolName: event.toolName, ...note, state: event.decision } };
}
