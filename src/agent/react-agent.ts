import { randomUUID } from 'node:crypto';
import { concatMap, defer, filter, from, lastValueFrom, map, type Observable, throwError } from 'rxjs';
import type { AgentEvent } from '../events/agent-event.js';
import { isRunEnd } from '../events/guards.js';
import type { LazyAgentOptions, ReActAgentOptions } from './agent-options.js';
import { resolveAgentOptions, type ResolvedAgent } from './resolve-agent-options.js';
import { runLoop$ } from './run-loop.js';
import type { RunOptions, RunResult } from './run-types.js';
import { withAbortSignal } from './with-abort-signal.js';

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
  private readonly resolve: () => ResolvedAgent | Promise<ResolvedAgent>;

  /** Checks `options` now (bad ones throw), or, given {@link LazyAgentOptions}, at the first run. */
  constructor(options: ReActAgentOptions | LazyAgentOptions) {
    if ('load' in options) {
      this.name = options.name;
      let pending: Promise<ResolvedAgent> | undefined;
      this.resolve = () =>
        (pending ??= options.load().then(resolveAgentOptions, (e: unknown) => {
          pending = undefined; // let a later run try again (the definition may exist by then)
          throw e;
        }));
    } else {
      const resolved = resolveAgentOptions(options);
      this.name = resolved.settings.name;
      this.resolve = () => resolved;
    }
  }

  /**
   * Streams one run. Cold: each subscription is a new run; unsubscribing aborts it (model
   * request, tools, child tasks) and nothing more is emitted. Aborting `options.signal` does
   * the same and then errors the stream with `AbortError`.
   */
  stream(prompt: string, options: RunOptions = {}): Observable<AgentEvent> {
    return this.run$(prompt, options.sessionId, !options.quiet).pipe(withAbortSignal(options.signal));
  }

  /**
   * Runs to the end without emitting events anywhere (children's events are not forwarded
   * either) and resolves with the result. Rejects with `AbortError` when `options.signal`
   * aborts; a model failure resolves with `abnormal: true`.
   */
  call(prompt: string, options: RunOptions = {}): Promise<RunResult> {
    let sessionId = '';
    return lastValueFrom(
      this.run$(prompt, options.sessionId, false).pipe(
        withAbortSignal(options.signal),
        filter((e) => {
          if (e.type === 'RunStart') sessionId = e.sessionId;
          return isRunEnd(e);
        }),
        map(({ type: _type, agentName: _agent, ...end }): RunResult => ({ ...end, sessionId })),
      ),
    );
  }

  private run$(prompt: string, sessionId: string | undefined, streaming: boolean): Observable<AgentEvent> {
    if (typeof prompt !== 'string' || prompt.trim() === '') {
      return throwError(() => new TypeError(`The prompt must be a non-empty string, got ${JSON.stringify(prompt) ?? String(prompt)}`));
    }
    if (sessionId !== undefined && (typeof sessionId !== 'string' || sessionId === '')) {
      return throwError(() => new TypeError(`The sessionId must be a non-empty string, got ${JSON.stringify(sessionId) ?? String(sessionId)}`));
    }
    // Without a session the run stands alone: a fresh id for its events, nothing stored.
    const input = { prompt, sessionId: sessionId ?? newSessionId(), ephemeral: sessionId === undefined, streaming };
    return defer(() => {
      // Most agents are resolved already: run the loop directly, with no operator between it
      // and the subscriber (every delta crosses this path). Lazy ones wait for their options.
      const resolved = this.resolve();
      if (!(resolved instanceof Promise)) return runLoop$(resolved.settings, resolved.setup, input);
      return from(resolved).pipe(concatMap(({ settings, setup }) => runLoop$(settings, setup, input)));
    });
  }
}

function newSessionId(): string {
  return `ses_${randomUUID()}`;
}
