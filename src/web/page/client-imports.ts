/**
 * What the page takes from `rxharness/client` (the same module a user imports), plus the
 * RxJS type of a subscription.
 *
 * @module
 */
export { AbortError, answerApproval, cancelRun, fromRun, RunRequestError, startRun, toUiItem } from '../../client/index.js';
export type { Subscription } from 'rxjs';
