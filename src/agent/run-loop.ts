import { Observable, Subscription } from 'rxjs';
import type { AgentEvent, ToolCallInfo } from '../events/agent-event.js';
import type { ChatMessage } from '../model/chat-message.js';
import type { ModelFinish, ToolSpec } from '../model/chat-model.js';
import { repairHistory } from '../session/repair-history.js';
import type { Tool } from '../tools/tool.js';
import { maybe$ } from './maybe.js';
import { assistantMessage, reasonStep$ } from './reason-step.js';
import type { AgentSettings, RunEnv } from './run-env.js';
import { RunState } from './run-state.js';
import { toolCall$ } from './tool-call.js';

/** What a run needs from its agent besides the settings; resolved when the run starts. */
export interface RunSetup {
  readonly instructions: () => string | Promise<string>;
  readonly tools: () => readonly Tool[] | Promise<readonly Tool[]>;
  /** Text to put in front of the prompt, asked for just before the prompt is saved. */
  readonly promptPrefix: ((sessionId: string) => string) | undefined;
}

/** One run's input. */
export interface RunInput {
  readonly prompt: string;
  readonly sessionId: string;
  /** True under `stream()`: deltas are emitted and tools may forward events. */
  readonly streaming: boolean;
}

/**
 * One run of the ReAct loop as a cold stream: `RunStart`, then steps of reasoning and
 * action until the model answers without tool calls (or the step limit), then exactly one
 * `RunEnd` and completion. Failures of the model or the session store end the run with an
 * abnormal `RunEnd`. Unsubscribing stops whatever phase is running (the model request, the
 * tool) and emits nothing more. The phases are subscribed one after another, so a run whose
 * parts answer synchronously runs synchronously.
 */
export function runLoop$(settings: AgentSettings, setup: RunSetup, input: RunInput): Observable<AgentEvent> {
  return new Observable<AgentEvent>((out) => {
    const run = new RunState(settings.name, input.sessionId);
    const phases = new Subscription();
    const end = (error?: string): void => {
      out.next(run.end(error));
      out.complete();
    };
    const fail = (e: unknown): void => end(e instanceof Error ? e.message : String(e));
    /** Forwards a phase's events, then continues. */
    const events = (source$: Observable<AgentEvent>, then: () => void): void => {
      phases.add(source$.subscribe({ next: (e) => out.next(e), error: fail, complete: then }));
    };
    /** Waits for a phase's value, then continues with it. */
    const value = <T>(source$: Observable<T>, then: (v: T) => void): void => {
      phases.add(source$.subscribe({ next: then, error: fail }));
    };
    const persist = (messages: readonly ChatMessage[], then: () => void): void =>
      value(maybe$(() => settings.sessions.append(input.sessionId, messages)), then);

    const step = (env: RunEnv, n: number): void => {
      run.steps = n;
      let finish: ModelFinish | undefined;
      let calls: readonly ToolCallInfo[] = [];
      const reason$ = reasonStep$(env, n, (f, c) => ((finish = f), (calls = c)));
      events(reason$, () => {
        const answer = finish!;
        const lastStep = n >= settings.maxSteps;
        run.text = answer.text;
        run.addUsage(answer.usage);
        const message = assistantMessage(answer, !lastStep);
        run.messages.push(message);
        persist([message], () => {
          if (calls.length === 0) return end();
          if (lastStep) {
            const names = calls.map((c) => c.name).join(', ');
            return end(`the agent reached its step limit (maxSteps ${settings.maxSteps}) and still asked for tools (${names}) instead of answering`);
          }
          act(env, n, answer, calls, () => step(env, n + 1));
        });
      });
    };

    const act = (env: RunEnv, n: number, answer: ModelFinish, calls: readonly ToolCallInfo[], then: () => void): void => {
      const base = { runId: run.runId, agentName: run.agentName, step: n };
      out.next({ type: 'ActionStart', ...base, toolCalls: calls });
      let i = 0;
      const next = (): void => {
        const call = answer.toolCalls[i++];
        if (!call) {
          out.next({ type: 'ActionEnd', ...base });
          return then();
        }
        let text = '';
        events(
          toolCall$(env, n, call, (t) => (text = t)),
          () => {
            const message: ChatMessage = { role: 'tool', tool_call_id: call.id, content: text };
            run.messages.push(message);
            persist([message], next);
          },
        );
      };
      next();
    };

    out.next({ type: 'RunStart', runId: run.runId, agentName: run.agentName, sessionId: input.sessionId, prompt: input.prompt });
    // Three lookups in turn (not Promise.all) so that synchronous ones stay synchronous.
    value(maybe$(setup.instructions), (instructions) =>
      value(maybe$(setup.tools), (tools) =>
        value(maybe$(() => settings.sessions.load(input.sessionId)), (history) => {
          // Asked for here, synchronously before the save: nothing between can stop the run.
          const prefix = setup.promptPrefix?.(input.sessionId);
          const user: ChatMessage = { role: 'user', content: prefix ? `${prefix}\n\n${input.prompt}` : input.prompt };
          const system: ChatMessage[] = instructions ? [{ role: 'system', content: instructions }] : [];
          run.messages = [...system, ...repairHistory(history), user];
          const env = createEnv(settings, run, input, tools);
          persist([user], () => step(env, 1));
        }),
      ),
    );
    return phases;
  });
}

function createEnv(settings: AgentSettings, run: RunState, input: RunInput, tools: readonly Tool[]): RunEnv {
  const byName = new Map<string, Tool>();
  for (const t of tools) byName.set(t.name, t);
  return {
    settings,
    run,
    streaming: input.streaming,
    rootSessionId: settings.rootSessionId ?? input.sessionId,
    tools: byName,
    toolSpecs: () => tools.map((t): ToolSpec => ({ name: t.name, description: t.description, parameters: t.parameters })),
  };
}
