import { EventType, type AGUIEvent } from '@ag-ui/core';
import type { ToolCallEndEvent } from '../../events/agent-event.js';
import { resultIdOf } from './ag-ui-ids.js';

/**
 * What the client is shown of the main run's calls to its frontend tools, across AG-UI runs.
 * A call's `TOOL_CALL_START/ARGS/END` are held until its tool starts (the rules let it run),
 * then shown once ({@link FrontendCallView.release}). Its end is shown by what AG-UI lets the
 * client hold: a `TOOL_CALL_RESULT` answers a call the client was shown (AG-UI ties a result to
 * its `TOOL_CALL_START`), and only when the client sent no result of its own for it (the one it
 * sent is in its messages already: a second would answer the call twice). A call never shown
 * (refused, or answered before it was shown) ends as a `CUSTOM` `rxharness.ToolCallEnd`: a
 * result would be a tool message answering no call of the client's, which `@ag-ui/client`
 * keeps and sends back, and chat servers refuse.
 */
export class FrontendCallView {
  /** The `TOOL_CALL_START/ARGS/END` of calls not shown yet, by call id. */
  readonly #held = new Map<string, AGUIEvent[]>();
  /** Calls shown to the client that have not ended. */
  readonly #shown = new Set<string>();
  /** Calls the client sent a result for that have not ended. */
  readonly #answered = new Set<string>();

  /** Holds a call's `TOOL_CALL_START/ARGS/END` until its tool starts. */
  hold(callId: string, events: AGUIEvent[]): void {
    this.#held.set(callId, events);
  }

  /** The held events of a call whose tool has started: the client may run it now. None for any other call, or a second time. */
  release(callId: string): AGUIEvent[] {
    const held = this.#held.get(callId);
    if (held === undefined) return [];
    this.#held.delete(callId);
    this.#shown.add(callId);
    return held;
  }

  /** The client sent a result for the call (a tool message of its request). */
  answered(callId: string): void {
    this.#answered.add(callId);
  }

  /**
   * The AG-UI events of a frontend call's end (`toolCallId`: the id the client knows it by);
   * every record of the call is dropped (a model may use its id again).
   */
  end(event: ToolCallEndEvent, toolCallId: string): AGUIEvent[] {
    const { callId } = event;
    const shown = this.#shown.delete(callId);
    const answered = this.#answered.delete(callId);
    this.#held.delete(callId);
    if (!shown) return [{ type: EventType.CUSTOM, name: 'rxharness.ToolCallEnd', value: event }];
    if (answered) return [];
    return [{ type: EventType.TOOL_CALL_RESULT, messageId: resultIdOf(toolCallId), toolCallId, content: event.text, role: 'tool' }];
  }
}
