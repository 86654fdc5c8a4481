import { EventType, type AGUIEvent } from '@ag-ui/core';
import type { AgentEvent, ReasonEndEvent, TaskWrapEvent, ToolCallInfo } from '../../events/agent-event.js';
import { isDelegationTool } from '../../subagent/delegation-tool-names.js';
import { messageIdOf, reasoningIdOf, resultIdOf } from './ag-ui-ids.js';
import { FrontendCallView } from './frontend-call-view.js';
import { SubagentSteps } from './subagent-steps.js';
import { ToolCallIds } from './tool-call-ids.js';

/**
 * Translates one run's events into AG-UI events, keeping what AG-UI needs to know across
 * events: which messages, reasoning spans and subagents are open (a run may only finish with
 * none open), and which messages already exist on the client.
 *
 * - The run's text: one assistant message per step (`TEXT_MESSAGE_*`); its reasoning: one
 *   reasoning span and message per step (`REASONING_*`).
 * - Tool calls: `TOOL_CALL_START/ARGS/END` when the model has asked for them (its step's
 *   `ReasonEnd`), with the step's message as `parentMessageId`; `TOOL_CALL_RESULT` when each ends.
 *   Each call's `toolCallId` is unique in the thread, though a model may repeat its ids ({@link ToolCallIds}).
 *   A main-run call of a frontend tool (one the client runs) is held back until its tool has
 *   started ({@link AgUiMapper.release}): a client that runs a call at its `TOOL_CALL_END` (as
 *   `@ag-ui/client`'s `onNewToolCall` lets it), before it reads the next event, never runs a
 *   call the rules refuse. One that ends without (refused) is shown only as a `CUSTOM`
 *   `rxharness.ToolCallEnd`, and one the client answered gets no `TOOL_CALL_RESULT` of ours
 *   (see {@link FrontendCallView}).
 * - A subagent (a `TaskWrap`): a step named after the task's description
 *   (`STEP_STARTED/FINISHED`) around `SUBAGENT_STARTED/FINISHED` (or `SUBAGENT_ERROR`), its run
 *   id the `subagentRunId` every one of its events carries, its tool calls' ids prefixed with
 *   it; a nested subagent names its parent in `parentSubagentRunId`. A wrapped `RunEnd` closes
 *   the subagent, never the AG-UI run.
 * - Plans, approvals, queued tasks: `CUSTOM` events named `rxharness.<event type>`.
 *
 * One mapper follows one run across AG-UI runs: {@link AgUiMapper.closeOpen} closes what is
 * open when an AG-UI run stops early (an interrupt), and the next events reopen it.
 */
export class AgUiMapper {
  /** Open text messages, with the subagent each belongs to. */
  readonly #texts = new Map<string, string | undefined>();
  /** Open reasoning messages, with their subagent. */
  readonly #reasoning = new Map<string, string | undefined>();
  /** Messages that have had text on the client, in this AG-UI run or an earlier one. */
  readonly #shown = new Set<string>();
  /** The open delegation call of each run, by run id. */
  readonly #delegations = new Map<string, string>();
  readonly #subagents = new SubagentSteps();
  /** The main run's calls to frontend tools. */
  readonly #frontendCalls = new FrontendCallView();
  readonly #ids: ToolCallIds;

  /**
   * @param frontendTools The tools the client runs (the request's `tools`); none by default.
   * @param takenToolCallIds The tool call ids the client's messages hold already: no call of this run gets one.
   */
  constructor(
    private readonly frontendTools: ReadonlySet<string> = NO_TOOLS,
    takenToolCallIds: Iterable<string> = [],
  ) {
    this.#ids = new ToolCallIds(takenToolCallIds);
  }

  /** The AG-UI id of the run's (latest) call `callId` of run `runId`; `sub`: the subagent it belongs to. */
  toolCallIdOf(runId: string, callId: string, sub: string | undefined): string {
    return this.#ids.of(runId, callId, sub);
  }

  /** The model's id of the main-run call the client names by `toolCallId`; undefined for one it was never shown, or an earlier one (see {@link ToolCallIds.callIdOf}). */
  callIdOf(toolCallId: string): string | undefined {
    return this.#ids.callIdOf(toolCallId);
  }

  /** The AG-UI events of one of the run's events (none for most bookkeeping events). */
  map(event: AgentEvent): AGUIEvent[] {
    const out: AGUIEvent[] = [];
    this.#map(event, undefined, out);
    return out;
  }

  /**
   * The held `TOOL_CALL_START/ARGS/END` of a main-run frontend call whose tool has started (the
   * rules let it run): the client may run it now. None for any other call, or a second time.
   */
  release(callId: string): AGUIEvent[] {
    return this.#frontendCalls.release(callId);
  }

  /** The client sent a result for a main-run frontend call: its own tool message shows it, ours would repeat it. */
  answered(callId: string): void {
    this.#frontendCalls.answered(callId);
  }

  /**
   * Closes every open message, reasoning span and subagent (a subagent as `suspended` when
   * the run goes on without this AG-UI run, as finished otherwise), so `RUN_FINISHED` may follow.
   */
  closeOpen(suspended: boolean): AGUIEvent[] {
    const out: AGUIEvent[] = [];
    for (const [messageId, sub] of this.#texts) out.push({ type: EventType.TEXT_MESSAGE_END, messageId, ...attribution(sub) });
    for (const [messageId, sub] of this.#reasoning) out.push(...closeReasoning(messageId, sub));
    this.#texts.clear();
    this.#reasoning.clear();
    out.push(...this.#subagents.closeAll(suspended));
    return out;
  }

  #map(event: AgentEvent, sub: string | undefined, out: AGUIEvent[]): void {
    switch (event.type) {
      case 'TaskWrap':
        return this.#wrapped(event, sub, out);
      case 'ReasonDelta': {
        if (event.text === '') return;
        if (event.kind === 'thinking') {
          const id = reasoningIdOf(event.runId, event.step);
          if (!this.#reasoning.has(id)) {
            this.#reasoning.set(id, sub);
            out.push({ type: EventType.REASONING_START, messageId: id, ...attribution(sub) });
            out.push({ type: EventType.REASONING_MESSAGE_START, messageId: id, role: 'reasoning', ...attribution(sub) });
          }
          out.push({ type: EventType.REASONING_MESSAGE_CONTENT, messageId: id, delta: event.text, ...attribution(sub) });
          return;
        }
        const id = messageIdOf(event.runId, event.step);
        this.#openText(id, sub, out);
        out.push({ type: EventType.TEXT_MESSAGE_CONTENT, messageId: id, delta: event.text, ...attribution(sub) });
        return;
      }
      case 'ReasonEnd':
        return this.#reasonEnd(event, sub, out);
      case 'ToolCallStart':
        // A subagent started under a delegation call names it as its parent call. (A run's calls
        // run one at a time, so `generate`, which starts none, only ever holds the place alone.)
        if (isDelegationTool(event.toolName)) this.#delegations.set(event.runId, this.#ids.of(event.runId, event.callId, sub));
        return;
      case 'ToolCallEnd': {
        const toolCallId = this.#ids.of(event.runId, event.callId, sub);
        if (this.#delegations.get(event.runId) === toolCallId) this.#delegations.delete(event.runId);
        if (sub === undefined && this.frontendTools.has(event.toolName)) {
          out.push(...this.#frontendCalls.end(event, toolCallId));
          return;
        }
        out.push({ type: EventType.TOOL_CALL_RESULT, messageId: resultIdOf(toolCallId), toolCallId, content: event.text, role: 'tool', ...attribution(sub) });
        return;
      }
      case 'Plan':
      case 'HITLPending':
      case 'HITLDecided':
      case 'TaskQueued':
        out.push({ type: EventType.CUSTOM, name: `rxharness.${event.type}`, value: event });
        return;
      default:
        return;
    }
  }

  /** A subagent's event: its subagent opened (again) first; its own end closes it. */
  #wrapped(wrap: TaskWrapEvent, parent: string | undefined, out: AGUIEvent[]): void {
    const sub = wrap.runId;
    out.push(...this.#subagents.open(wrap, parent, this.#delegations.get(wrap.parentRunId)));
    const inner = wrap.event;
    if (inner.type === 'RunEnd' && inner.runId === sub) {
      out.push(...this.#closeMessagesOf(sub));
      out.push(...this.#subagents.end(sub, inner.abnormal ? { message: inner.error ?? 'the subagent failed', code: 'task_failed' } : { result: inner.text }));
    } else if (inner.type === 'RunCancelled' && inner.runId === sub) {
      out.push(...this.#closeMessagesOf(sub));
      out.push(...this.#subagents.end(sub, { message: inner.reason, code: 'task_cancelled' }));
    } else {
      this.#map(inner, sub, out);
    }
  }

  #reasonEnd(event: ReasonEndEvent, sub: string | undefined, out: AGUIEvent[]): void {
    const reasoning = reasoningIdOf(event.runId, event.step);
    if (this.#reasoning.delete(reasoning)) out.push(...closeReasoning(reasoning, sub));
    const messageId = messageIdOf(event.runId, event.step);
    if (!this.#shown.has(messageId) && event.text !== '') {
      // Not streamed (a model that answered in one piece): the whole text at once.
      this.#openText(messageId, sub, out);
      out.push({ type: EventType.TEXT_MESSAGE_CONTENT, messageId, delta: event.text, ...attribution(sub) });
    }
    if (this.#texts.delete(messageId)) out.push({ type: EventType.TEXT_MESSAGE_END, messageId, ...attribution(sub) });
    for (const call of event.toolCalls) {
      const toolCallId = this.#ids.assign(event.runId, call.callId, sub);
      // The frontend's tools are the main agent's only (a subagent's calls never reach the client).
      if (sub !== undefined || !this.frontendTools.has(call.name)) pushToolCall(out, toolCallId, call, messageId, sub);
      else this.#frontendCalls.hold(call.callId, pushToolCall([], toolCallId, call, messageId, undefined));
    }
  }

  #openText(messageId: string, sub: string | undefined, out: AGUIEvent[]): void {
    if (this.#texts.has(messageId)) return;
    this.#texts.set(messageId, sub);
    this.#shown.add(messageId);
    out.push({ type: EventType.TEXT_MESSAGE_START, messageId, role: 'assistant', ...attribution(sub) });
  }

  /** Closes what a subagent left open (a failed step's message) before the subagent closes. */
  #closeMessagesOf(sub: string): AGUIEvent[] {
    const out: AGUIEvent[] = [];
    for (const [messageId, owner] of this.#texts) {
      if (owner !== sub) continue;
      this.#texts.delete(messageId);
      out.push({ type: EventType.TEXT_MESSAGE_END, messageId, subagentRunId: sub });
    }
    for (const [messageId, owner] of this.#reasoning) {
      if (owner !== sub) continue;
      this.#reasoning.delete(messageId);
      out.push(...closeReasoning(messageId, sub));
    }
    return out;
  }
}

const NO_TOOLS: ReadonlySet<string> = new Set();

/** Appends a call's `TOOL_CALL_START/ARGS/END` to `out`, and returns `out`. */
function pushToolCall(out: AGUIEvent[], toolCallId: string, call: ToolCallInfo, parentMessageId: string, sub: string | undefined): AGUIEvent[] {
  out.push({ type: EventType.TOOL_CALL_START, toolCallId, toolCallName: call.name, parentMessageId, ...attribution(sub) });
  out.push({ type: EventType.TOOL_CALL_ARGS, toolCallId, delta: typeof call.args === 'string' ? call.args : JSON.stringify(call.args), ...attribution(sub) });
  out.push({ type: EventType.TOOL_CALL_END, toolCallId, ...attribution(sub) });
  return out;
}

/** The `subagentRunId` field of a subagent's event; nothing for the main run's (AG-UI refuses `null`). */
function attribution(sub: string | undefined): { subagentRunId?: string } {
  return sub === undefined ? {} : { subagentRunId: sub };
}

function closeReasoning(messageId: string, sub: string | undefined): AGUIEvent[] {
  return [
    { type: EventType.REASONING_MESSAGE_END, messageId, ...attribution(sub) },
    { type: EventType.REASONING_END, messageId, ...attribution(sub) },
  ];
}
