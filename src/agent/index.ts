export { AbortError } from './abort-error.js';
export type { PerRun, ReActAgentOptions } from './agent-options.js';
export { ApprovalGrants } from './approval-grants.js';
export { ReActAgent } from './react-agent.js';
export { SessionBusyError } from './session-busy-error.js';
export type { RunOptions, RunResult } from './run-types.js';
export { withAbortSignal } from './with-abort-signal.js';
