import { concat, Observable, of } from 'rxjs';
import type { AgentEvent } from '../events/agent-event.js';
import type { ChatMessage } from '../model/chat-message.js';
import { maybeThen$ } from './maybe.js';
import { withFirst$ } from './with-first.js';
import type { AgentScope } from './agent-scope.js';
import { RunOutput } from './run-output.js';
import { type RunInput, runScopeOf } from './run-scope.js';
import { loadHistory$ } from './run-start.js';
import { RunState } from './run-state.js';
import { type Item, persist$, RunSteps } from './run-steps.js';
import { Next, sequencePhases$ } from './sequence-phases.js';
import { claimSession } from './session-claims.js';
import { afterClosing, closeStoppedTurn, closingUnfinishedTurn } from './close-unfinished-turn.js';
import { agentSpan } from '../telemetry/spans.js';
import { errorMessage } from '../errors/error-message.js';

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
    input.meter?.(() => run.metrics());
    out.add(() => run.abandon());
    // Held here at once (a second run of the session in this process throws), and through the
    // store, which may answer later (a Redis lease): the run starts once the store granted it.
    const hold = input.ephemeral ? undefined : claimSession(agent.sessions, input.sessionId, run.runId);
    if (hold) {
      // Stopped before its RunEnd (cancelled): the turn is closed, and only then is the session free again.
      out.add(() => afterClosing(closeStoppedTurn(agent, input, run), hold.release));
    }
    const over = agent.onRun?.(input.sessionId, input.ephemeral);
    if (over) out.add(over);
    const recover = (e: unknown): AgentEvent => run.end(errorMessage(e));
    const output = new RunOutput(out);
    const events$ = sequencePhases$<AgentEvent>(() => start$(agent, input, run, output), recover);
    // An abnormal end: the turn is closed in the session before the RunEnd says why.
    const begin = (): void => void closingUnfinishedTurn(events$, agent, input, run).subscribe(out);
    if (hold) hold.whenHeld(begin, (e) => out.error(e));
    else begin();
  });
}

/**
 * `RunStart`, then the setup: instructions, tools, history and the saved prompt; last, the
 * first step. `output` is the run's, where its steps and calls deliver what they stream.
 */
function start$(agent: AgentScope, input: RunInput, run: RunState, output: RunOutput): Observable<Item> {
  const runStart: AgentEvent = { type: 'RunStart', runId: run.runId, agentName: run.agentName, sessionId: input.sessionId, prompt: input.prompt };
  // Three lookups in turn (not Promise.all), so that synchronous ones stay synchronous.
  const setup$ = maybeThen$(agent.instructions, (instructions) =>
    maybeThen$(agent.tools, (tools) =>
      loadHistory$(agent, input, run, ({ history, warnings }) => {
        const system: ChatMessage[] = instructions ? [{ role: 'system', content: instructions }] : [];
        const steps = new RunSteps(runScopeOf(agent, run, input, tools), output);
        const toolWarnings = (agent.toolWarnings?.(tools) ?? []).map(({ code, message }): AgentEvent => ({ type: 'Warning', runId: run.runId, agentName: run.agentName, code, message }));
        // The prefix is asked for right before the save (a run stopped at a warning takes
        // nothing), and given back if the save fails or it settles after the run stopped:
        // what it took is not lost.
        const first$ = maybeThen$(
          () => agent.promptPrefix?.(input.sessionId, history),
          (prefix) => {
            const user: ChatMessage = { role: 'user', content: prefix?.text ? `${prefix.text}\n\n${input.prompt}` : input.prompt };
            run.messages = [...system, ...history, user];
            return persist$(steps.scope, [user], () => [new Next(steps.step(1))], prefix?.unsaved);
          },
          (prefix) => prefix?.unsaved(),
        );
        return warnings.length + toolWarnings.length ? concat(of(...warnings, ...toolWarnings), first$) : first$;
      }),
    ),
  );
  return withFirst$<Item>(runStart, setup$);
}
