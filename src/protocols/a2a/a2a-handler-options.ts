import type { HarnessEngine } from '../../engine/harness-engine.js';
import type { RunsHandlerOptions } from '../../http/runs-handler-options.js';
import type { A2ACardOptions } from './agent-card.js';

/**
 * What {@link a2aHandler} needs of the engine: starting runs, the started runs, the subagents
 * (its card's skills); a HarnessEngine's `prepareStart` when it has one (a custom engine may not).
 */
export type A2AEngine = Pick<HarnessEngine, 'start' | 'runs' | 'agents'> & Partial<Pick<HarnessEngine, 'prepareStart'>>;

/**
 * Options of {@link a2aHandler}: those of `runsHandler` (`basePath`, `authorize`, `maxRuns`,
 * `maxBodyBytes`, `bodyTimeoutMs`, `keepAliveMs`, `fallthrough`, `maxControlRequests`, with the same defaults and
 * checks), and the card.
 */
export interface A2AHandlerOptions extends RunsHandlerOptions {
  /** The card's name, description and version. */
  readonly card?: A2ACardOptions;
  /**
   * The JSON-RPC endpoint's URL as clients reach it, written into the card (behind a proxy,
   * say). Default: `http://<the request's Host><basePath>/a2a`.
   */
  readonly publicUrl?: string;
  /**
   * The most A2A tasks kept for `tasks/get`, `tasks/list` and `tasks/cancel`. Finished tasks are
   * forgotten oldest first to make room; a running one never is, and a message that finds every
   * place held by a running task is refused `429` (with `Retry-After`) before its run starts.
   * Default 1,000.
   */
  readonly maxTasks?: number;
}
