import type { ToolResult } from '../../tools/tool.js';

/**
 * The calls of one run to tools the AG-UI frontend runs. A call is left to the client
 * (`pendingToolCallIds`) only once its tool has started, so the permission rules allowed it
 * (an `ask` was answered) and its arguments fit its schema: the client is never told to run a
 * call the rules deny, nor one still waiting for its approval (nor is it shown the call before:
 * `AgUiMapper.release`). An answer that comes before the call's tool has started (a client that
 * answers a call of the step it was not asked for yet) is kept for the call, used if the call
 * gets to run. Every answer is used once: a call id the model repeats at a later step is a new call.
 */
export class FrontendCalls {
  /** The calls the model has asked for (their step's `ReasonEnd`) and which have not ended. */
  readonly #announced = new Set<string>();
  /** Answers that came before their call's tool started. */
  readonly #early = new Map<string, ToolResult>();
  /** Calls whose tool has started and waits for the client, with how the result reaches it. */
  readonly #waiting = new Map<string, (result: ToolResult) => void>();
  /** Calls the client was asked to run and has not answered. */
  readonly #asked = new Set<string>();
  #onWaiting: (() => void) | undefined;

  /** Who hears that a call now waits for the client (the AG-UI run showing the run; `undefined`: none). */
  listen(onWaiting: (() => void) | undefined): void {
    this.#onWaiting = onWaiting;
  }

  /** The model has asked for the call, a frontend tool's in the main run (its step's `ReasonEnd`). */
  announced(callId: string): void {
    this.#announced.add(callId);
    this.#early.delete(callId);
  }

  /** The call has ended (its `ToolCallEnd`), run or refused: an answer kept for it is dropped. */
  ended(callId: string): void {
    this.#announced.delete(callId);
    this.#early.delete(callId);
  }

  /** The calls to leave to the client now (and show it): their tool waits for it, and the model asked for them. */
  ready(): string[] {
    return [...this.#waiting.keys()].filter((callId) => this.#announced.has(callId) && !this.#asked.has(callId));
  }

  /** Notes the calls the client is asked to run (the `pendingToolCallIds` of the AG-UI run that ends). */
  ask(callIds: readonly string[]): void {
    for (const callId of callIds) this.#asked.add(callId);
  }

  /** The calls the client was asked to run and has not answered, in the order they were asked. */
  asked(): string[] {
    return [...this.#asked];
  }

  /** Whether an answer to `callId` is for a call of this run: one asked, or one the model asked for whose tool has not started. */
  expects(callId: string): boolean {
    return this.#asked.has(callId) || (this.#announced.has(callId) && !this.#waiting.has(callId));
  }

  /** Gives the call the client's answer (kept until its tool starts, if it has not); `false` for any other id. */
  answer(callId: string, result: ToolResult): boolean {
    if (!this.expects(callId)) return false;
    const deliver = this.#waiting.get(callId);
    if (deliver === undefined) {
      this.#early.set(callId, result);
      return true;
    }
    this.#waiting.delete(callId);
    this.#asked.delete(callId);
    this.#announced.delete(callId);
    deliver(result);
    return true;
  }

  /**
   * The client's answer to the call, at once if it came early, else once it sends it (the
   * listener hears the call waits); rejects when `signal` aborts (the run cancelled, the tool timed out).
   */
  wait(callId: string, signal: AbortSignal): Promise<ToolResult> {
    const early = this.#early.get(callId);
    if (early !== undefined) {
      this.ended(callId);
      return Promise.resolve(early);
    }
    return new Promise<ToolResult>((resolve, reject) => {
      const deliver = (result: ToolResult): void => {
        signal.removeEventListener('abort', onAbort);
        resolve(result);
      };
      const onAbort = (): void => {
        if (this.#waiting.get(callId) === deliver) {
          this.#waiting.delete(callId);
          this.#asked.delete(callId);
        }
        reject(signal.reason instanceof Error ? signal.reason : new Error('the call was cancelled'));
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      this.#waiting.set(callId, deliver);
      this.#onWaiting?.();
    });
  }
}
