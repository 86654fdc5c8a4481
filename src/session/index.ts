export type { MaybePromise, SessionStore } from './session-store.js';
export { MemorySessionStore } from './memory-session-store.js';
export { INTERRUPTED_TOOL_RESULT, repairHistory } from './repair-history.js';
