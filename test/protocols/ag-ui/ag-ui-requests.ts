/**
 * One AG-UI request as a hostile or hand-rolled client sends it: `POST` a `RunAgentInput`
 * with the test token and read the whole answer as AG-UI events (the `data:` frames), without
 * `@ag-ui/client`, so a test can send what that client never would and look at every event.
 *
 * @module
 */
import { TOKEN } from '../protocol-kit.js';

/** An AG-UI event as it came over the wire. */
export type WireEvent = Record<string, unknown> & { readonly type: string };

/** The answer to one request: its status and, for an event stream, its events in order. */
export interface AgUiAnswer {
  readonly status: number;
  readonly events: WireEvent[];
  /** The body, when it was not an event stream (a refusal's JSON). */
  readonly text: string;
}

/** A user message of a `RunAgentInput`, its id made of its text. */
export const user = (text: string): Record<string, unknown> => ({ id: `u-${text}`, role: 'user', content: text });

/** Posts `input` to `url` and reads the answer to its end. */
export async function postRunAgentInput(url: string, input: Record<string, unknown>): Promise<AgUiAnswer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
    body: JSON.stringify(input),
  });
  const text = await response.text();
  const stream = response.headers.get('content-type')?.startsWith('text/event-stream') === true;
  const events = stream
    ? text
        .split('\n\n')
        .filter((frame) => frame.startsWith('data: '))
        .map((frame) => JSON.parse(frame.slice('data: '.length)) as WireEvent)
    : [];
  return { status: response.status, events, text };
}

/** The outcome of the AG-UI run's `RUN_FINISHED` (its last event), or undefined when it did not finish so. */
export function outcomeOf(answer: AgUiAnswer): Record<string, unknown> | undefined {
  const last = answer.events.at(-1);
  return last?.type === 'RUN_FINISHED' ? ((last['outcome'] as Record<string, unknown> | undefined) ?? {}) : undefined;
}
