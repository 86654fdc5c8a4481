/**
 * A `fetch` whose response bodies break after a chosen number of bytes, as a lost network
 * would: the real connection is aborted (the server sees it close) and the body errors.
 *
 * @module
 */

/** A fetch that cuts each response body after `budget()` bytes (undefined: never), counting the cuts. */
export function cuttingFetch(budget: () => number | undefined): { fetch: typeof fetch; cuts: () => number; connections: () => number } {
  let cuts = 0;
  let connections = 0;
  const cutting: typeof fetch = async (input, init) => {
    connections += 1;
    const inner = new AbortController();
    const outer = init?.signal;
    outer?.addEventListener('abort', () => inner.abort(outer.reason), { once: true });
    const response = await fetch(input, { ...init, signal: inner.signal });
    let left = budget();
    if (response.body === null || left === undefined) return response;
    const reader = response.body.getReader();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (done) return controller.close();
          if (value.length <= left!) {
            left! -= value.length;
            return controller.enqueue(value);
          }
          controller.enqueue(value.subarray(0, left));
          left = 0;
          cuts += 1;
          inner.abort(); // the real connection goes down
          controller.error(new TypeError('network connection lost'));
        } catch (error) {
          controller.error(error);
        }
      },
      cancel: (reason) => reader.cancel(reason),
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  return { fetch: cutting, cuts: () => cuts, connections: () => connections };
}

/** A small seeded generator (mulberry32), so a failure can be replayed from its seed. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
