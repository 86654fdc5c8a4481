import type { ToolResult } from '../../tools/tool.js';

/**
 * The calls of one run to tools the AG-UI frontend runs: the run's tool waits here until the
 * client's next request brings the call's result (a tool message naming the call's id). An
 * answer may come before the call starts (the model asked for two frontend tools in one
 * step, and the client answered both): it is kept for it.
 */
export class FrontendCalls {
  readonly #expected = new Set<string>();
  readonly #answers = new Map<string, ToolResult>();
  readonly #waiting = new Map<string, (result: ToolResult) => void>();

  /** A call the model asked for (its step's `ReasonEnd`): the client will answer it. */
  expect(callId: string): void {
    this.#expected.add(callId);
  }

  /** The expected calls not answered yet, in the order they were asked for. */
  unanswered(): string[] {
    return [...this.#expected].filter((id) => !this.#answers.has(id));
  }

  /** Whether the client's answer to the call is here. */
  answered(callId: string): boolean {
    return this.#answers.has(callId);
  }

  /** Takes the client's answer to an expected, unanswered call; `false` for any other id (an old call of the thread). */
  answer(callId: string, result: ToolResult): boolean {
    if (!this.#expected.has(callId) || this.#answers.has(callId)) return false;
    this.#answers.set(callId, result);
    this.#waiting.get(callId)?.(result);
    this.#waiting.delete(callId);
    return true;
  }

  /** The call's answer, once the client sends it; rejects when `signal` aborts (the run cancelled, the tool timed out). */
  wait(callId: string, signal: AbortSignal): Promise<ToolResult> {
    const ready = this.#answers.get(callId);
    if (ready !== undefined) return Promise.resolve(ready);
    this.#expected.add(callId);
    return new Promise<ToolResult>((resolve, reject) => {
      const onAbort = (): void => {
        this.#waiting.delete(callId);
        reject(signal.reason instanceof Error ? signal.reason : new Error('the call was cancelled'));
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      this.#waiting.set(callId, (result) => {
        signal.removeEventListener('abort', onAbort);
        resolve(result);
      });
    });
  }
}
