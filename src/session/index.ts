export type { MaybePromise, SessionListRequest, SessionPosition, SessionStore, SessionSummary, TaskSessionInfo } from './session-store.js';
export { sessionTitle } from './session-title.js';
export type { ClaimGranted, ClaimRefused, SessionClaim } from './session-claim.js';
export { MemorySessionStore, type MemorySessionStoreOptions } from './memory-session-store.js';
export { FileSessionStore } from './file-session-store.js';
export { INTERRUPTED_TOOL_RESULT, repairHistory } from './repair-history.js';
export { UnsafeLinkError } from './unsafe-link-error.js';
