import { Observable } from 'rxjs';
import type { ToolCallInfo } from '../events/agent-event.js';
import type { AssistantMessage, ChatMessage } from '../model/chat-message.js';
import type { ChatRequest, ModelFinish } from '../model/chat-model.js';
import type { RunOutput } from './run-output.js';
import type { RunScope } from './run-scope.js';
import { chatTrace } from './chat-trace.js';
import { budgetAdmit } from './reserve-request.js';
import { parseArguments, type ParsedCall } from './tool-arguments.js';
import { withOwnIds } from '../model/tool-call-ids.js';
import { withTextArguments } from '../model/arguments-text.js';
import { failedRequestTokens, stepTokens } from './step-budget.js';
import { marksPartialReplies } from '../model/partial-reply.js';

/**
 * Sent on the last allowed step only (never stored), at the end of the conversation's last
 * message (the prompt, or the last tool result). Not as a message of its own: many chat
 * templates refuse a `system` message after the conversation (Qwen3.5: HTTP 500,
 * Mistral-Nemo: 400) or a `user` message right after tool results (Mistral-Nemo); and not in
 * the leading system message, which Mistral-Nemo shows only with a last user message, so it
 * would be lost after tool results. The last message is shown by every template.
 */
export const FINAL_STEP_NOTE =
  'You have reached the step limit of this run: tools are no longer available. ' +
  'Give your final answer now, based on what you have found so far.';

/** The conversation with the final-step note at the end of its last message. */
export function withFinalStepNote(messages: readonly ChatMessage[]): ChatMessage[] {
  const last = messages.at(-1);
  if (last?.role === 'user' || last?.role === 'tool') {
    return [...messages.slice(0, -1), { ...last, content: `${last.content}\n\n[${FINAL_STEP_NOTE}]` }];
  }
  // No prompt or tool result to carry it (a hand-built conversation): a leading system message.
  const [first, ...rest] = messages;
  if (first?.role === 'system') return [{ role: 'system', content: `${first.content}\n\n${FINAL_STEP_NOTE}` }, ...rest];
  return [{ role: 'system', content: FINAL_STEP_NOTE }, ...messages];
}

/** The model's answer in one step: its finish, and the tool calls it asks for, parsed (once: `toolCalls` for the events, `calls` for running them). */
export interface StepAnswer {
  readonly finish: ModelFinish;
  readonly toolCalls: readonly ToolCallInfo[];
  /** `finish.toolCalls` in order, each with its parsed arguments. */
  readonly calls: readonly ParsedCall[];
  /** The estimate of the request that was answered (its `ContextSize.tokenCount`: messages, and tools when it offered them). */
  readonly requestTokens: number;
}

/**
 * One reasoning step: sends the conversation to the model, delivers `ContextSize` (of
 * `tokenCount`, the request's estimate, counted once by the caller), `ReasonStart`,
 * `ReasonDelta`s (only when streamed) and `ReasonEnd` to the run's `output`, and emits the
 * model's answer as its one value. The last step (`lastStep`: the step limit, or a spent token
 * budget) sends no tools. A model failure errors this stream; the run turns it into an
 * abnormal `RunEnd`.
 */
export function reasonStep$(scope: RunScope, step: number, lastStep: boolean, tokenCount: number, output: RunOutput): Observable<StepAnswer> {
  return new Observable<StepAnswer>((out) => {
    const { run, agent } = scope;
    const base = { runId: run.runId, agentName: run.agentName, step };
    const sender = { agentName: run.agentName, runId: run.runId, step };
    const withSettings = agent.modelSettings === undefined ? {} : { settings: agent.modelSettings };
    // A request queued behind the request limiter looks at the budget again once it may go.
    // What the step used before (its summaries, a request that failed mid-reply) counts as spent, though charged only when it ends.
    const withAdmit = scope.budget ? { ...withSettings, admit: budgetAdmit(scope.budget, run) } : withSettings;
    // Under call() no delta is emitted: the model need not send them (a piece of the hot path less).
    const options = scope.input.streaming ? { ...withAdmit, sender } : { ...withAdmit, sender, deltas: false };
    const request: ChatRequest = lastStep
      ? { messages: withFinalStepNote(run.messages), ...options }
      : { messages: run.messages.slice(), tools: scope.toolSpecs(), ...options }; // a snapshot: the run appends to its own list
    // Asked here too, for a model without the request limiter (which asks it again in its slot): a
    // compaction's summaries may have spent the pool since the step reserved. Nothing is sent then.
    const refused = request.admit?.();
    if (refused) {
      out.error(refused);
      return;
    }
    const started = performance.now();
    output.next({ type: 'ContextSize', runId: run.runId, agentName: run.agentName, messageCount: request.messages.length, tokenCount });
    output.next({ type: 'ReasonStart', ...base });
    let finish: ModelFinish | undefined;
    /** The finish between its `ReasonEnd` and its hand-over: a step stopped there still charges it (see the teardown). */
    let unhanded: ModelFinish | undefined;
    const chat = chatTrace(run, agent.model.id, agent.modelSettings);
    // Characters of the deltas seen (undefined: none came), for the charge of a request that
    // fails. Counted only for a model whose reader does not count them itself (one of the
    // user's own): the built-in one's carries its count on its error (partial-reply.ts).
    const counting = !marksPartialReplies(agent.model);
    let streamed: number | undefined;
    /** Fails the step; a request whose reply had begun is charged with the step's (see `failedRequestTokens`). */
    const failed = (e: unknown): void => {
      run.unansweredTokens += failedRequestTokens(e, tokenCount, streamed);
      chat?.end(finish, e instanceof Error ? e : String(e));
      out.error(e);
    };
    const subscription = agent.model.stream(request).subscribe({
      next: (chunk) => {
        // A custom model may repeat an id, as a server can, or hand arguments over as an object.
        if (chunk.type === 'finish') finish = withOwnIds(withTextArguments(chunk));
        else if (chunk.type === 'warning') output.next({ type: 'Warning', runId: run.runId, agentName: run.agentName, code: chunk.code, message: chunk.message });
        else {
          if (counting) streamed = (streamed ?? 0) + chunk.text.length;
          if (!scope.input.streaming || out.closed) return;
          // The hottest path of a run: a literal with fixed fields, no spread.
          const kind = chunk.type === 'text-delta' ? 'text' : 'thinking';
          output.next({ type: 'ReasonDelta', runId: run.runId, agentName: run.agentName, step, kind, text: chunk.text });
        }
      },
      error: failed,
      complete: () => {
        if (!finish) return failed(new Error(`model "${agent.model.id}" ended its response without finishing it`));
        chat?.end(finish);
        const calls: ParsedCall[] = finish.toolCalls.map((call) => ({ call, parsed: parseArguments(call.arguments) }));
        const toolCalls: ToolCallInfo[] = calls.map(({ call, parsed }) => ({ callId: call.id, name: call.name, args: parsed.value }));
        const durationMs = Math.round(performance.now() - started);
        const reason = finish.finishReason === undefined ? {} : { finishReason: finish.finishReason };
        const usage = finish.usage === undefined ? {} : { usage: finish.usage };
        // Counted in the run's usage as soon as it is known: a consumer may stop the run at this ReasonEnd.
        run.addUsage(finish.usage);
        unhanded = finish;
        output.next({ type: 'ReasonEnd', ...base, text: finish.text, toolCalls, durationMs, ...reason, ...usage });
        unhanded = undefined;
        out.next({ finish, toolCalls, calls, requestTokens: tokenCount });
        out.complete();
      },
    });
    return () => {
      subscription.unsubscribe();
      chat?.stop(); // unsubscribed mid-request: the span still ends, marked stopped
      // Stopped at its ReasonEnd: the server's usage is known but the answer was never handed
      // to the run, which settles the reservation with it; the reservation's give-back (run
      // after this teardown) charges it instead, as the server billed it.
      if (unhanded) run.unansweredTokens += stepTokens(tokenCount, unhanded).tokens;
    };
  });
}

/** The assistant message a response adds to the conversation. */
export function assistantMessage(finish: ModelFinish, withCalls: boolean): AssistantMessage {
  if (!withCalls || finish.toolCalls.length === 0) return { role: 'assistant', content: finish.text };
  return {
    role: 'assistant',
    content: finish.text || null,
    tool_calls: finish.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })),
  };
}
