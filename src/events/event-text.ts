import type { AgentEvent } from './agent-event.js';

/**
 * The text an event carries, as Solon's `getText()` gives it: a `ReasonDelta`'s piece, a
 * `ReasonEnd`'s or `RunEnd`'s text, a `ToolCallEnd`'s result, a `Warning`'s message, a
 * `RunCancelled`'s or `HITLPending`'s reason; `''` for an event without text. A `TaskWrap`
 * gives its inner event's text (however deep), so a UI can print every event's text without
 * unwrapping first.
 *
 * @example
 * ```ts
 * engine.stream('Survey this project').subscribe((event) => process.stdout.write(eventText(event)));
 * ```
 */
export function eventText(event: AgentEvent): string {
  let inner = event;
  // A loop, not recursion: a hostile stream may nest wrappers thousands deep.
  while (inner.type === 'TaskWrap') inner = inner.event;
  switch (inner.type) {
    case 'ReasonDelta':
    case 'ReasonEnd':
    case 'ToolCallEnd':
    case 'RunEnd':
      return inner.text;
    case 'Warning':
      return inner.message;
    case 'RunCancelled':
    case 'HITLPending':
      return inner.reason;
    default:
      return '';
  }
}
