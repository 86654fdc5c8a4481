import { concat, concatMap, defer, EMPTY, finalize, map, Observable, of, type Subscriber } from 'rxjs';
import type { AgentEvent, ToolCallInfo } from '../events/agent-event.js';
import type { ChatMessage } from '../model/chat-message.js';
import type { ModelFinish } from '../model/chat-model.js';
import { estimateTokens } from '../model/estimate-tokens.js';
import type { BudgetReservation, BudgetState, TokenBudget } from '../model/token-budget.js';
import { maybe$ } from './maybe.js';
import { giveBack, reserve$ } from './reserve-request.js';
import { assistantMessage } from './reason-step.js';
import { reasonWithCompaction$ } from './reason-with-compaction.js';
import type { AgentScope } from './agent-scope.js';
import { type RunInput, type RunScope, runScopeOf } from './run-scope.js';
import { loadHistory$ } from './run-start.js';
import { RunState } from './run-state.js';
import { Next, type Phase, sequencePhases$ } from './sequence-phases.js';
import { claimSession } from './session-claims.js';
import { afterClosing, closeStoppedTurn, closingUnfinishedTurn } from './close-unfinished-turn.js';
import { agentSpan } from '../telemetry/spans.js';
import { errorMessage } from '../errors/error-message.js';
import { toolCall$ } from './tool-call.js';
import { cutAnswer } from './cut-answer.js';

type Item = AgentEvent | Next<AgentEvent>;
/** Where a run's events go: its subscriber. */
type Sink = Pick<Subscriber<AgentEvent>, 'next'>;

/**
 * One run of the ReAct loop as a cold stream: `RunStart`, then steps of reasoning and
 * action until the model answers without tool calls (or the step limit), then exactly one
 * `RunEnd` and completion. Failures of the model or the session store end the run with an
 * abnormal `RunEnd`; a session that another run is using fails it with `SessionBusyError`
 * before it starts. Unsubscribing stops whatever phase is running (the model request, the
 * tool) and emits nothing more.
 *
 * Each part (the start, every step, every tool call) is a phase of
 * {@link sequencePhases$}: stack-safe however many steps and calls answer synchronously,
 * and still synchronous when they all do.
 */
export function runLoop$(agent: AgentScope, input: RunInput): Observable<AgentEvent> {
  return new Observable<AgentEvent>((out) => {
    const run = new RunState(agent.name, input.sessionId, input.runId);
    run.trace = agentSpan(agent.name, run.runId, input.sessionId, agent.task?.traceContext);
    out.add(() => run.abandon());
    // Held here at once (a second run of the session in this process throws), and through the
    // store, which may answer later (a Redis lease): the run starts once the store granted it.
    const hold = input.ephemeral ? undefined : claimSession(agent.sessions, input.sessionId, run.runId);
    if (hold) {
      // Stopped before its RunEnd (cancelled): the turn is closed, and only then is the session free again.
      out.add(() => afterClosing(closeStoppedTurn(agent, input, run), hold.release));
    }
    const { onRunEnd } = agent;
    if (onRunEnd) out.add(() => onRunEnd(input.sessionId, input.ephemeral));
    const recover = (e: unknown): AgentEvent => run.end(errorMessage(e));
    const events$ = sequencePhases$<AgentEvent>(() => start$(agent, input, run, out), recover);
    // An abnormal end: the turn is closed in the session before the RunEnd says why.
    const begin = (): void => void closingUnfinishedTurn(events$, agent, input, run).subscribe(out);
    if (hold) hold.whenHeld(begin, (e) => out.error(e));
    else begin();
  });
}

/**
 * `RunStart`, then the setup: instructions, tools, history and the saved prompt. `out` is the
 * run's own output, where the steps deliver their streamed events (see {@link Loop}).
 */
function start$(agent: AgentScope, input: RunInput, run: RunState, out: Sink): Observable<Item> {
  const runStart: AgentEvent = { type: 'RunStart', runId: run.runId, agentName: run.agentName, sessionId: input.sessionId, prompt: input.prompt };
  // Three lookups in turn (not Promise.all), so that synchronous ones stay synchronous.
  const setup$ = maybe$(agent.instructions).pipe(
    concatMap((instructions) => maybe$(agent.tools).pipe(map((tools) => ({ instructions, tools })))),
    concatMap(({ instructions, tools }) =>
      loadHistory$(agent, input, run).pipe(
        concatMap(({ history, warnings }) => {
          // Asked for here, synchronously before the save: nothing between can stop the run.
          const prefix = agent.promptPrefix?.(input.sessionId);
          const user: ChatMessage = { role: 'user', content: prefix ? `${prefix}\n\n${input.prompt}` : input.prompt };
          const system: ChatMessage[] = instructions ? [{ role: 'system', content: instructions }] : [];
          run.messages = [...system, ...history, user];
          const loop = new Loop(runScopeOf(agent, run, input, tools), out);
          const toolWarnings = (agent.toolWarnings?.(tools) ?? []).map(({ code, message }): AgentEvent => ({ type: 'Warning', runId: run.runId, agentName: run.agentName, code, message }));
          return concat(of(...warnings, ...toolWarnings), persist$(loop.scope, [user], () => new Next(loop.step(1))));
        }),
      ),
    ),
  );
  return concat(of(runStart), setup$);
}

/** Saves messages (unless the run is ephemeral), then emits `then()`. */
function persist$<T>(scope: RunScope, messages: readonly ChatMessage[], then: () => T): Observable<T> {
  const { input, agent, run } = scope;
  if (input.ephemeral) return defer(() => of(then()));
  return maybe$(() => {
    // Noted as handed over, not once written: a store keeps a session's writes in order, so
    // what closes a stopped turn lands after them even while one is still in flight.
    run.saved.push(...messages);
    return agent.sessions.append(input.sessionId, messages);
  }).pipe(map(then));
}

/**
 * The steps and tool calls of one run, each a phase. The events a phase streams while it runs
 * (a step's `ReasonDelta`s, a call's events and its task's wrapped ones) go straight to `out`,
 * the run's output, instead of through the phase's stream and `sequencePhases$`, which would
 * forward them unchanged: the same events in the same order, two subscribers fewer for each.
 */
class Loop {
  constructor(
    readonly scope: RunScope,
    private readonly out: Sink,
  ) {}

  /** What this agent's last request cost: the estimate its next one reserves. */
  private lastRequest: number | undefined;

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
    const budgetLast = reservation?.last ?? false;
    const lastStep = n >= agent.maxSteps || budgetLast;
    let finish: ModelFinish | undefined;
    let calls: readonly ToolCallInfo[] = [];
    const reason$ = reasonWithCompaction$(this.scope, n, lastStep, (f, c) => ((finish = f), (calls = c)), this.out);
    let state: BudgetState | undefined;
    return concat(
      // A request that fails or is stopped before its usage is known gives its reservation back.
      reservation ? reason$.pipe(finalize(() => finish === undefined && giveBack(reservation))) : reason$,
      defer(() => {
        const answer = finish!;
        run.text = answer.text;
        run.addUsage(answer.usage);
        const tokens = stepTokens(run.messages, answer);
        this.lastRequest = tokens;
        const charged$ = reservation
          ? maybe$(() => reservation.settle(tokens)).pipe(map((settled) => budgetEvent(this.scope, n, (state = settled))))
          : EMPTY;
        const message = assistantMessage(answer, !lastStep);
        run.messages.push(message);
        const after = (): Item[] => (budgetLast ? [run.end(budgetError(state!))] : this.afterReason(n, answer, calls));
        return concat(charged$, persist$(this.scope, [message], after).pipe(concatMap((items) => items)));
      }),
    );
  }

  /** What follows a saved answer: the end, or `ActionStart` and the first tool call. */
  private afterReason(n: number, answer: ModelFinish, calls: readonly ToolCallInfo[]): Item[] {
    const { run, agent } = this.scope;
    if (calls.length === 0) return [run.end(cutAnswer(agent, answer))];
    if (n >= agent.maxSteps) {
      const names = calls.map((c) => c.name).join(', ');
      return [run.end(`the agent reached its step limit (maxSteps ${agent.maxSteps}) and still asked for tools (${names}) instead of answering`)];
    }
    return [{ type: 'ActionStart', runId: run.runId, agentName: run.agentName, step: n, toolCalls: calls }, new Next(this.call(n, answer, 0))];
  }

  /** Tool call `i` of step `n`, its result saved; after the last, `ActionEnd` and the next step. */
  private call(n: number, answer: ModelFinish, i: number): Phase<AgentEvent> {
    return () => {
      const { run } = this.scope;
      const call = answer.toolCalls[i];
      if (!call) {
        const actionEnd: Item = { type: 'ActionEnd', runId: run.runId, agentName: run.agentName, step: n };
        return of(actionEnd, new Next(this.step(n + 1)));
      }
      let text = '';
      return concat(
        toolCall$(this.scope, n, call, (t) => (text = t), this.out),
        defer(() => {
          const message: ChatMessage = { role: 'tool', tool_call_id: call.id, content: text };
          run.messages.push(message);
          return persist$(this.scope, [message], () => new Next(this.call(n, answer, i + 1)));
        }),
      );
    };
  }
}

/**
 * What a step cost: the server's count of the request and the reply, or, from a server that
 * reports none, an estimate (four characters a token).
 */
function stepTokens(messages: readonly ChatMessage[], answer: ModelFinish): number {
  return answer.usage?.totalTokens ?? estimateTokens(messages) + Math.ceil(answer.text.length / 4);
}

/** The `Budget` event that reports what is left after step `step`. */
function budgetEvent(scope: RunScope, step: number, state: BudgetState): AgentEvent {
  const { run } = scope;
  return { type: 'Budget', runId: run.runId, agentName: run.agentName, step, limit: state.limit, used: state.used, remaining: state.remaining };
}

/** The abnormal end of a run whose last request took what was left of its budget (and was made without tools). */
function budgetError(state: BudgetState): string {
  return `the token budget is spent: ${state.used} of ${state.limit} tokens used by this run and its tasks, so its last step was made without tools`;
}

/** The abnormal end of a run refused a request: nothing was left once the requests in flight were counted. */
function budgetRefused(budget: TokenBudget): string {
  const { limit, used } = budget.binding();
  const held = Math.max(0, budget.remaining());
  const inFlight = held > 0 ? ` (the ${held} left are held by requests in flight)` : '';
  return `the token budget is spent: ${used} of ${limit} tokens used by this run and its tasks${inFlight}, so no further model request was made`;
}
