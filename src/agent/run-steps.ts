import { concat, concatMap, defer, EMPTY, from, type Observable, type ObservableInput, of } from 'rxjs';
import type { AgentEvent } from '../events/agent-event.js';
import type { ChatMessage } from '../model/chat-message.js';
import type { BudgetReservation } from '../model/token-budget.js';
import { maybeThen$, whenFailed } from './maybe.js';
import type { MaybePromise } from '../session/session-store.js';
import { assistantMessage, type StepAnswer } from './reason-step.js';
import { reasonWithCompaction$ } from './reason-with-compaction.js';
import { givenBackUnanswered, reserve$ } from './reserve-request.js';
import type { RunOutput } from './run-output.js';
import type { RunScope } from './run-scope.js';
import { afterResult, Next, type Phase } from './sequence-phases.js';
import { budgetError, budgetEvent, budgetRefused, stepTokens, usageEstimatedWarning } from './step-budget.js';
import { cutAnswer } from './cut-answer.js';
import { MAX_TOOL_CALLS_PER_STEP } from './defaults.js';
import { toolCall$ } from './tool-call.js';

/** What a phase of a run emits: the loop's own events, and last the phase that runs next. */
export type Item = AgentEvent | Next<AgentEvent>;

/**
 * Saves messages (unless the run is ephemeral), then continues with `then()`'s values.
 * `unsaved` is called if the store fails them (see `whenFailed`).
 */
export function persist$<T>(scope: RunScope, messages: readonly ChatMessage[], then: () => ObservableInput<T>, unsaved?: () => void): Observable<T> {
  const { input, agent, run } = scope;
  // A turn already closed (its run stopped while this part was still on the stack: a tool that
  // answered at once, cancelled on its `ToolCallStart`) saves nothing more: a message after
  // its closing ones would answer nothing (a tool result after the closing answer).
  if (run.closed) return EMPTY;
  if (input.ephemeral) return defer(then);
  const append = (): MaybePromise<void> => agent.sessions.append(input.sessionId, messages);
  return maybeThen$(
    () => {
      // Noted as handed over, not once written: a store keeps a session's writes in order, so
      // what closes a stopped turn lands after them even while one is still in flight.
      run.noteSaved(messages);
      return unsaved ? whenFailed(append, unsaved) : append();
    },
    () => from(then()),
  );
}

/**
 * The steps and tool calls of one run, each a phase. A step or a call delivers what it
 * streams to the run's {@link RunOutput} and emits its result (the model's answer, the
 * call's text) as its last value, which the phase saves before it names the next one.
 */
export class RunSteps {
  constructor(
    readonly scope: RunScope,
    private readonly output: RunOutput,
  ) {}

  /** What this agent's last request cost: the estimate its next one reserves. */
  private lastRequest: number | undefined;
  /** Whether the run has said that its budget was charged an estimate (said once). */
  private toldEstimated = false;

  /**
   * Step `n`: with a token budget, a reservation first (refused: the run ends, no request is
   * made); then the model's turn, its message saved, then the tool calls, or the end.
   */
  step(n: number): Phase<AgentEvent> {
    return () => {
      const { run, budget } = this.scope;
      if (!budget) return this.request(n, undefined);
      return reserve$(budget, this.lastRequest).pipe(
        concatMap((reservation): Observable<Item> => (reservation ? this.request(n, reservation) : of(run.end(budgetRefused(budget))))),
      );
    };
  }

  /** The model's turn of step `n`, holding `reservation` until its usage is known. */
  private request(n: number, reservation: BudgetReservation | undefined): Observable<Item> {
    const { run, agent } = this.scope;
    run.steps = n;
    // The last step, made without tools: the step limit, or a request that takes what is left of the budget.
    const lastStep = n >= agent.maxSteps || (reservation?.last ?? false);
    const answer$ = reasonWithCompaction$(this.scope, n, lastStep, this.output);
    // A request that fails or is stopped before its usage is known gives its reservation back,
    // charged what its compaction's summaries used and, when it failed once its reply had
    // begun, the estimate of what it cost (a looping or dropped stream is not free).
    const spent = (): number => this.unanswered();
    const held$ = reservation ? answer$.pipe(givenBackUnanswered<StepAnswer>(reservation, spent)) : answer$;
    return held$.pipe(afterResult((answer) => this.answered(n, answer, lastStep, reservation)));
  }

  /** The answer of step `n` counted, charged to the budget (a `Budget` event) and saved; then what follows it. */
  private answered(n: number, answer: StepAnswer, lastStep: boolean, reservation: BudgetReservation | undefined): Observable<Item> {
    const { run } = this.scope;
    const { finish } = answer;
    run.text = finish.text; // its usage was counted by the step, before its ReasonEnd
    const { tokens, estimated } = stepTokens(answer.requestTokens, finish);
    this.lastRequest = tokens;
    const charged = tokens + this.unanswered(); // the step's summaries, if it compacted, with it
    // Calls that will not run are not stored (nor is any of a flood): the session stays sendable.
    const message = assistantMessage(finish, !lastStep && finish.toolCalls.length <= MAX_TOOL_CALLS_PER_STEP);
    run.messages.push(message);
    const saved$ = (after: () => Item[]): Observable<Item> => persist$(this.scope, [message], after);
    if (!reservation) return saved$(() => this.afterReason(n, answer));
    const told = estimated && !this.toldEstimated ? [usageEstimatedWarning(this.scope)] : [];
    if (estimated) this.toldEstimated = true;
    return maybeThen$(
      () => reservation.settle(charged),
      (state) =>
        concat(
          of(...told, budgetEvent(this.scope, n, state)),
          // A request that took what was left of the budget was the last: the run ends.
          saved$(() => (reservation.last ? [run.end(budgetError(state))] : this.afterReason(n, answer))),
        ),
    );
  }

  /** What the current step used besides its answer, now charged: its summaries, and its requests that failed mid-reply. */
  private unanswered(): number {
    const { run } = this.scope;
    const used = run.summaryTokens + run.unansweredTokens;
    run.summaryTokens = 0;
    run.unansweredTokens = 0;
    return used;
  }

  /** What follows a saved answer: the end, or `ActionStart` and the first tool call. */
  private afterReason(n: number, answer: StepAnswer): Item[] {
    const { run, agent } = this.scope;
    const calls = answer.toolCalls;
    if (calls.length === 0) return [run.end(cutAnswer(agent, answer.finish))];
    if (calls.length > MAX_TOOL_CALLS_PER_STEP) {
      // A reply cut at the first call over the limit (OpenAIChatModel) does not say how many it asked for.
      const asked = answer.finish.toolCallsCut ? `more than ${MAX_TOOL_CALLS_PER_STEP}` : `${calls.length}`;
      const cut = answer.finish.toolCallsCut ? ` (its reply was read no further than call ${MAX_TOOL_CALLS_PER_STEP + 1})` : '';
      return [run.end(`the model asked for ${asked} tool calls in one step, more than the ${MAX_TOOL_CALLS_PER_STEP} a step may run${cut}: none of them ran`)];
    }
    if (n >= agent.maxSteps) {
      const names = calls.map((c) => c.name).join(', ');
      return [run.end(`the agent reached its step limit (maxSteps ${agent.maxSteps}) and still asked for tools (${names}) instead of answering`)];
    }
    return [{ type: 'ActionStart', runId: run.runId, agentName: run.agentName, step: n, toolCalls: calls }, new Next(this.call(n, answer.calls, 0))];
  }

  /** Tool call `i` of step `n`, its result saved; after the last, `ActionEnd` and the next step. */
  private call(n: number, calls: StepAnswer['calls'], i: number): Phase<AgentEvent> {
    return () => {
      const { run } = this.scope;
      const call = calls[i];
      if (!call) {
        const actionEnd: Item = { type: 'ActionEnd', runId: run.runId, agentName: run.agentName, step: n };
        return of(actionEnd, new Next(this.step(n + 1)));
      }
      return toolCall$(this.scope, n, call, this.output).pipe(
        afterResult((text) => {
          const message: ChatMessage = { role: 'tool', tool_call_id: call.call.id, content: text };
          run.messages.push(message);
          return persist$(this.scope, [message], () => [new Next(this.call(n, calls, i + 1))]);
        }),
      );
    };
  }
}
