import { defer, filter, lastValueFrom, map, type Observable, throwError } from 'rxjs';
import type { AgentEvent } from '../events/agent-event.js';
import { isRunEnd } from '../events/guards.js';
import type { ReActAgentOptions } from './agent-options.js';
import type { AgentScope } from './agent-scope.js';
import { scopeOfOptions } from './resolve-agent-options.js';
import { runLoop$ } from './run-loop.js';
import type { RunInput } from './run-scope.js';
import { runResultOf } from './run-result.js';
import type { RunOptions, RunResult } from './run-types.js';
import { withAbortSignal } from './with-abort-signal.js';
import { newSessionId, sessionIdProblem } from '../session/session-id.js';
import { assertCheckableParameters } from '../tools/tool-input.js';
import type { Tool } from '../tools/tool.js';

/**
 * A ReAct agent: it reasons with a chat model, calls tools, reads their results and repeats
 * until it answers. Every run is a cold `Observable<AgentEvent>`; `call()` runs the same
 * loop for a one-shot {@link RunResult}.
 *
 * @example
 * ```ts
 * const agent = new ReActAgent({ model, instructions: 'You are terse.', tools: [clock] });
 * agent.stream('What time is it?').subscribe((e) => console.log(e.type));
 * const { text } = await agent.call('And now?');
 * ```
 */
export class ReActAgent {
  /** The agent's name in its events. */
  readonly name: string;
  private readonly scope: () => AgentScope;

  /**
   * Checks `options` now: a bad or unknown one throws an error naming it. A tool's
   * `parameters` meet `defineTool`'s checks (as `HarnessEngine`'s `tools` do): a list of
   * tools here; tools a function chooses, when each run starts, which a bad one ends abnormally.
   */
  constructor(options: ReActAgentOptions) {
    const scope = scopeOfOptions(options);
    const { tools } = options;
    // Refused where the author can mend it, not at each call (or never, for a pattern RE2 cannot run).
    if (Array.isArray(tools)) checkedTools(tools);
    const checked = typeof tools === 'function' ? { ...scope, tools: checkedEachRun(scope.tools) } : scope;
    this.name = scope.name;
    this.scope = () => checked;
  }

  /**
   * An agent whose scope is built by the engine when each run starts (a definition added
   * after the agent was made still counts; an unknown one fails that run).
   *
   * @internal
   */
  static ofScope(name: string, scope: () => AgentScope): ReActAgent {
    // Not through the constructor, which takes the public options only.
    const agent = Object.create(ReActAgent.prototype) as { name: string; scope: () => AgentScope };
    agent.name = name;
    agent.scope = scope;
    return agent as unknown as ReActAgent;
  }

  /**
   * Streams one run. Cold: each subscription is a new run; unsubscribing aborts it (model
   * request, tools, child tasks) and nothing more is emitted. Aborting `options.signal` does
   * the same and then errors the stream with `AbortError`.
   */
  stream(prompt: string, options: RunOptions = {}): Observable<AgentEvent> {
    return this.run$(prompt, { ...pick(options), streaming: true }).pipe(withAbortSignal(options.signal));
  }

  /**
   * Runs to the end without emitting events anywhere (children's events are not forwarded
   * either) and resolves with the result. Rejects with `AbortError` when `options.signal`
   * aborts; a model failure resolves with `abnormal: true`.
   */
  call(prompt: string, options: RunOptions = {}): Promise<RunResult> {
    let sessionId = '';
    return lastValueFrom(
      this.run$(prompt, { ...pick(options), streaming: false }).pipe(
        withAbortSignal(options.signal),
        filter((e) => {
          if (e.type === 'RunStart') sessionId = e.sessionId;
          return isRunEnd(e);
        }),
        map((end) => runResultOf(end, sessionId)),
      ),
    );
  }

  /**
   * One run. `streaming` false is what `call()` and a task under `call()` run with: only the
   * run's own lifecycle, no deltas, nothing forwarded by tools. `runId` is given when the id
   * must be known before the run starts (`engine.start()`).
   *
   * @internal
   */
  run$(
    prompt: string,
    options: { sessionId?: string; streaming: boolean; runId?: string; tokenBudget?: number; meter?: RunInput['meter'] },
  ): Observable<AgentEvent> {
    const { sessionId, streaming, runId, tokenBudget, meter } = options;
    if (typeof prompt !== 'string' || prompt.trim() === '') {
      return throwError(() => new TypeError(`The prompt must be a non-empty string, got ${JSON.stringify(prompt) ?? String(prompt)}`));
    }
    // Refused here, before any store sees it: an id with a lone surrogate would share another's session.
    const idProblem = sessionId === undefined ? undefined : sessionIdProblem(sessionId);
    if (idProblem !== undefined) return throwError(() => new TypeError(`The sessionId cannot be used: ${idProblem}`));
    // Without a session the run stands alone: a fresh id for its events, nothing stored.
    if (tokenBudget !== undefined && (!Number.isInteger(tokenBudget) || tokenBudget < 1)) {
      return throwError(() => new TypeError(`The tokenBudget must be a positive integer, got ${String(tokenBudget)}`));
    }
    const input = {
      prompt,
      sessionId: sessionId ?? newSessionId(),
      ephemeral: sessionId === undefined,
      streaming,
      ...(runId ? { runId } : {}),
      ...(tokenBudget !== undefined ? { tokenBudget } : {}),
      ...(meter ? { meter } : {}),
    };
    // No operator between the loop and the subscriber: every delta crosses this path.
    return defer(() => runLoop$(this.scope(), input));
  }
}

/** The run options that reach the loop (the signal is handled around it). */
function pick(options: RunOptions): { sessionId?: string; tokenBudget?: number } {
  return {
    ...(options.sessionId !== undefined ? { sessionId: options.sessionId } : {}),
    ...(options.tokenBudget !== undefined ? { tokenBudget: options.tokenBudget } : {}),
  };
}

/** `tools`, once each one's `parameters` passed `defineTool`'s checks (once per schema object, and per JSON text). */
function checkedTools(tools: readonly Tool[]): readonly Tool[] {
  for (const tool of tools) assertCheckableParameters('ReActAgent', tool);
  return tools;
}

/** The tools a function chooses, checked when each run starts; synchronous when it answers so. */
function checkedEachRun(tools: () => readonly Tool[] | Promise<readonly Tool[]>): () => readonly Tool[] | Promise<readonly Tool[]> {
  return () => {
    const chosen = tools();
    return chosen instanceof Promise ? chosen.then(checkedTools) : checkedTools(chosen);
  };
}
