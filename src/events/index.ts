export type * from './agent-event.js';
export type { JsonValue, JsonObject } from './json.js';
export { EMPTY_METRICS, type RunMetrics } from './run-metrics.js';
export { isAgentEvent, isEventType, isRunEnd, isTaskWrap } from './guards.js';
export { eventText } from './event-text.js';
export { ofEventType } from './operators/of-event-type.js';
export { terminalRunEnd } from './operators/terminal-run-end.js';
export { unwrapEvent, unwrapTaskEvents, type TaskFrame, type UnwrappedEvent } from './operators/unwrap-task-events.js';
