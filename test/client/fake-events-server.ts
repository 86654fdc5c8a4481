/**
 * A `fetch` that plays a server of run events from a script: what a broken, hostile or
 * silent server sends, without a server.
 *
 * @module
 */
import type { AgentEvent } from '../../src/events/index.js';

export const RUN = 'run_1';
export const metrics = { promptTokens: 1, completionTokens: 1, totalTokens: 2, durationMs: 1, tasks: 0 };
export const runStart: AgentEvent = { type: 'RunStart', runId: RUN, agentName: 'main', sessionId: 's', prompt: 'p' };
export const runEnd: AgentEvent = { type: 'RunEnd', runId: RUN, agentName: 'main', text: 'ok', abnormal: false, metrics, steps: 1 };
export const delta = (text: string): AgentEvent => ({ type: 'ReasonDelta', runId: RUN, agentName: 'main', step: 1, kind: 'text', text });
export const END = 'event: end\ndata: {}\n\n';

/** One SSE message of the events stream. */
export const frame = (seq: number, event: unknown, runId = RUN): string => `id: ${seq}\ndata: ${JSON.stringify({ runId, seq, event })}\n\n`;

/** What a script gives a connection: the whole body, or a stream. */
export type Body = string | ReadableStream<Uint8Array>;

/** A fetch answering connection `n` (0, 1, 2...) with `body(n, signal)` and `status`; it records the URLs and counts the cancelled bodies. */
export function scriptedFetch(body: (n: number, signal: AbortSignal | undefined) => Body, status = 200) {
  const urls: string[] = [];
  let cancelled = 0;
  const fetch = async (input: string, init?: RequestInit): Promise<Response> => {
    const made = body(urls.length, init?.signal ?? undefined);
    urls.push(input);
    const stream = typeof made === 'string' ? new Response(made).body! : made;
    // count the cancels the client makes (it lets a connection go when done with it)
    const reader = stream.getReader();
    const counted = new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel: (reason) => {
        cancelled += 1;
        return reader.cancel(reason);
      },
    });
    return new Response(counted, { status, headers: { 'content-type': 'text/event-stream' } });
  };
  return { fetch, urls, cancelled: () => cancelled };
}

/** A body that sends `head`, then nothing ever (it ends only when cancelled): a connection gone silent. */
export function silentAfter(head: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(head);
  let sent = false;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent) return new Promise<void>(() => undefined);
      sent = true;
      controller.enqueue(bytes);
    },
  });
}

/** A body of `head`, then `unit` over and over without end; `sent()` counts the bytes pulled from it. */
export function endless(head: string, unit: string) {
  const encoder = new TextEncoder();
  const piece = encoder.encode(unit);
  let sent = 0;
  const body = (): ReadableStream<Uint8Array> => {
    let first = true;
    return new ReadableStream<Uint8Array>({
      pull(controller) {
        const chunk = first ? encoder.encode(head) : piece;
        first = false;
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
  };
  return { body, sent: () => sent };
}
