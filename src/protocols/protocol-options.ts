import type { RunsAuthorizer, RunsHandlerOptions } from '../http/runs-handler-options.js';
import { resolveRunsOptions } from '../http/runs-handler-options.js';
import type { RunSlots } from '../http/run-slots.js';

/** Options of the protocol handlers (`agUiHandler`, `chatHandler`). */
export interface ProtocolHandlerOptions {
  /**
   * The path the handler answers (e.g. `/ag-ui`); a request to another path is left alone:
   * the handler returns `false` (or calls `next`, under Express) and writes nothing. Default:
   * every path (mount it where you want it, e.g. `app.post('/ag-ui', handler)`).
   */
  readonly path?: string;
  /**
   * Who may start runs: `false` (or a promise of it) answers `401` with
   * `WWW-Authenticate: Bearer`. The same hook as `runsHandler`'s (see docs/http.md); default everyone.
   */
  readonly authorize?: RunsAuthorizer;
  /**
   * Runs started through this handler that may run at once (a run's place stays taken while its
   * conversation's background tasks run, one per conversation, as with `runsHandler`); one more
   * is answered `429` with `Retry-After`. Default 16. A `RunSlots` shares one cap with other
   * handlers (see `runsHandler`).
   */
  readonly maxRuns?: number | RunSlots;
  /** The largest request body, in bytes (`413` above it). Default 1 MiB. */
  readonly maxBodyBytes?: number;
  /** Milliseconds a request body may take to arrive (`408` after). Default 10,000. */
  readonly bodyTimeoutMs?: number;
  /** Milliseconds between `: keep-alive` comments on the event stream; 0 turns them off. Default 15,000. */
  readonly keepAliveMs?: number;
}

/** The options with their defaults, checked. */
export interface ResolvedProtocolOptions {
  readonly path: string | undefined;
  readonly authorize: RunsAuthorizer | undefined;
  readonly slots: RunSlots;
  /** The slots of requests that start no run (`maxControlRequests`, as `runsHandler`'s), the handler's own. */
  readonly controlSlots: RunSlots;
  readonly maxBodyBytes: number;
  readonly bodyTimeoutMs: number;
  readonly keepAliveMs: number;
}

/**
 * Applies the defaults (those of `runsHandler`, checked the same way); an invalid option throws
 * naming it. `maxControlRequests` is for the handlers that read requests starting no run (`agUiHandler`).
 */
export function resolveProtocolOptions(options: ProtocolHandlerOptions & Pick<RunsHandlerOptions, 'maxControlRequests'>): ResolvedProtocolOptions {
  const { path, ...shared } = options;
  if (path !== undefined && (typeof path !== 'string' || !path.startsWith('/'))) {
    throw new TypeError(`path must be a path starting with "/", e.g. "/ag-ui", got ${JSON.stringify(path)}`);
  }
  const o = resolveRunsOptions(shared);
  return { path, authorize: o.authorize, slots: o.slots, controlSlots: o.controlSlots, maxBodyBytes: o.maxBodyBytes, bodyTimeoutMs: o.bodyTimeoutMs, keepAliveMs: o.keepAliveMs };
}
