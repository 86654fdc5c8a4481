/**
 * Record and replay of the delegation traffic, for measuring a client's own CPU without a
 * server sharing the machine: `recordingFetch` keeps each response's body as the network
 * reads delivered it; `replayFetch` answers every later request from those recordings, the
 * same bytes in the same pieces, without a socket. The scenario's agents are told apart as
 * the fake server tells them apart (`scenarios/delegation.ts`): the worker marker in the
 * system prompt, else a tool result after the prompt (the main agent's answer), else the
 * main agent's delegation.
 *
 * @module
 */
import { DELEGATION } from '../scenarios/delegation.js';

type Kind = 'worker' | 'final' | 'delegate';
interface Recorded {
  readonly status: number;
  readonly headers: [string, string][];
  readonly pieces: Uint8Array[];
}

/** By plain string search, so telling requests apart costs the measured client nothing to speak of. */
function kindOf(body: string): Kind {
  if (body.includes(DELEGATION.workerMarker)) return 'worker';
  return body.includes('"role":"tool"') ? 'final' : 'delegate';
}

/** The recordings of one run of the scenario, one per kind of request. */
export type Recordings = Map<Kind, Recorded>;

/** A `fetch` that records every response (read to its end) by kind, then hands it on unread. */
export function recordingFetch(into: Recordings): typeof fetch {
  return async (url, init) => {
    const response = await fetch(url, init);
    const pieces: Uint8Array[] = [];
    for await (const piece of response.body!) pieces.push(new Uint8Array(piece));
    const recorded: Recorded = { status: response.status, headers: [...response.headers], pieces };
    into.set(kindOf(String(init?.body)), recorded);
    return replay(recorded);
  };
}

function replay(recorded: Recorded): Response {
  let i = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const piece = recorded.pieces[i++];
      if (piece) controller.enqueue(piece.slice());
      else controller.close();
    },
  });
  return new Response(body, { status: recorded.status, headers: recorded.headers });
}

/** A `fetch` that answers from `recordings` (each body a fresh stream of the same pieces). */
export function replayFetch(recordings: Recordings): typeof fetch {
  return async (_url, init) => {
    const recorded = recordings.get(kindOf(String(init?.body)));
    if (!recorded) throw new Error('replay: no recording for this request');
    return replay(recorded);
  };
}

/** How many pieces (network reads) the recordings hold. */
export function pieceCount(recordings: Recordings): number {
  return [...recordings.values()].reduce((n, r) => n + r.pieces.length, 0);
}
