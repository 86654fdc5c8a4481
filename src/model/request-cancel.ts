/**
 * How one model request is cancelled: by its subscriber leaving, or by the idle watchdog.
 *
 * Not an `AbortController` of its own per request: making an `AbortSignal` costs about 5 µs
 * of CPU in Node 20 (and the openai client links it to the controller it makes anyway, with
 * one more listener). The `node:http` transport takes this object itself
 * ({@link cancelOption}) and stops its request directly; a client the user passes gets a
 * real signal ({@link RequestCancel.signal}), made only then.
 */
export class RequestCancel {
  /**
   * Milliseconds the transport waits for the response headers: the openai client's `timeout`
   * of the request, which the transport then keeps itself (a timer, not a listener on the
   * client's signal, which only that timeout could abort). `undefined`: not kept here.
   */
  readonly headersTimeoutMs: number | undefined;
  #aborted = false;
  #stop: (() => void) | undefined;
  #controller: AbortController | undefined;

  /** A cancel for one request; `headersTimeoutMs`: see {@link RequestCancel.headersTimeoutMs}. */
  constructor(headersTimeoutMs?: number) {
    this.headersTimeoutMs = headersTimeoutMs;
  }

  /** Whether the request was cancelled. */
  get aborted(): boolean {
    return this.#aborted;
  }

  /** An `AbortSignal` that aborts with this cancel, for a fetch of the user's own; made on first use. */
  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort();
    }
    return this.#controller.signal;
  }

  /** Cancels the request: the transport's request stops, the signal (if one was made) aborts. Once; later calls do nothing. */
  abort(): void {
    if (this.#aborted) return;
    this.#aborted = true;
    const stop = this.#stop;
    this.#stop = undefined;
    stop?.();
    this.#controller?.abort();
  }

  /**
   * The transport's: `stop` stops the request in flight when the request is cancelled. One
   * at a time (the attempt in flight); the returned function forgets it, once the exchange is
   * over, so that a late cancel cannot reach a socket the next request reuses.
   */
  onAbort(stop: () => void): () => void {
    this.#stop = stop;
    return () => {
      if (this.#stop === stop) this.#stop = undefined;
    };
  }
}

/** The key under which a {@link RequestCancel} travels through the openai client's `fetchOptions` to the transport. */
const CANCEL = Symbol('rxharness.requestCancel');

/**
 * `fetchOptions` for the openai client that hand `cancel` to the `node:http` transport (the
 * client spreads them into what it passes its fetch). Typed as the client's own `fetchOptions`,
 * which no symbol key fits.
 */
export function cancelOption<FetchOptions>(cancel: RequestCancel): FetchOptions {
  return { [CANCEL]: cancel } as FetchOptions;
}

/** The {@link RequestCancel} a fetch's `init` carries, if any. */
export function cancelOf(init: RequestInit): RequestCancel | undefined {
  return (init as { [CANCEL]?: RequestCancel })[CANCEL];
}
