import { toolCallIdOf } from './ag-ui-ids.js';

/** A call as our events name it: the run that made it and the model's id. */
interface ModelCall {
  readonly runId: string;
  readonly callId: string;
}

/**
 * The AG-UI ids of one run's tool calls, each unique in the thread. A model may give the
 * same id to calls of different steps (`call_0` at every step, as small local models do), and
 * `@ag-ui/client` takes a `TOOL_CALL_START` of an id its messages hold for the same call: it
 * appends the new arguments to the old ones, and the two calls become one. So a call keeps its
 * usual id ({@link toolCallIdOf}) only while that id is free in the thread; else it gets the
 * first free `<id>~2`, `<id>~3`, …. A call's id is given once, at its step's `ReasonEnd`, and
 * kept (the same call has the same id in every AG-UI run that shows it); its later events
 * (its start and end, its approval) name the latest call of that model id in that run, as
 * the calls of one step all end before the next step asks for any.
 */
export class ToolCallIds {
  /** Ids the client holds already (from its messages) and ids given here. */
  readonly #taken: Set<string>;
  /** The AG-UI id of the latest call of each model id, by run. */
  readonly #latest = new Map<string, string>();
  /** The next suffix to try for each usual id, so a run of repeats (or a client's planted `~n` ids) is not scanned again per call. */
  readonly #next = new Map<string, number>();
  /** The model call behind each AG-UI id given to a main-run call (the client answers frontend calls by it). */
  readonly #main = new Map<string, ModelCall>();

  /** @param taken The tool call ids of the thread's messages as the client sent them. */
  constructor(taken: Iterable<string> = []) {
    this.#taken = new Set(taken);
  }

  /** Gives a call its AG-UI id (at its step's `ReasonEnd`). `sub`: the subagent it belongs to. */
  assign(runId: string, callId: string, sub: string | undefined): string {
    const usual = toolCallIdOf(runId, callId, sub);
    let id = usual;
    if (this.#taken.has(id)) {
      // Ids are never given back, so every suffix below the one remembered is taken.
      let n = this.#next.get(usual) ?? 2;
      while (this.#taken.has(`${usual}~${n}`)) n += 1;
      id = `${usual}~${n}`;
      this.#next.set(usual, n + 1);
    }
    this.#taken.add(id);
    this.#latest.set(keyOf(runId, callId), id);
    if (sub === undefined) this.#main.set(id, { runId, callId });
    return id;
  }

  /** The AG-UI id of the latest call of `callId` in the run; its usual id when none was given (a stream joined late). */
  of(runId: string, callId: string, sub: string | undefined): string {
    return this.#latest.get(keyOf(runId, callId)) ?? toolCallIdOf(runId, callId, sub);
  }

  /**
   * The model's id of the main-run call the client names by `toolCallId` (a frontend call's
   * result). Undefined for an id never given, or given to an earlier call of a model id used
   * again since: a stale answer must not answer the new call.
   */
  callIdOf(toolCallId: string): string | undefined {
    const call = this.#main.get(toolCallId);
    if (call === undefined || this.#latest.get(keyOf(call.runId, call.callId)) !== toolCallId) return undefined;
    return call.callId;
  }
}

function keyOf(runId: string, callId: string): string {
  return `${runId}\n${callId}`;
}
