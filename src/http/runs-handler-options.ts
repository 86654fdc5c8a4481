import type { IncomingMessage } from 'node:http';
import { MAX_TIMER_MS } from '../validation/max-timer.js';
import { RunSlots } from './run-slots.js';

/**
 * Decides whether a request may use the routes: `true` lets it through, `false` answers
 * `401`. Called before anything else (before the body is read, before a run is looked up).
 */
export type RunsAuthorizer = (req: IncomingMessage) => boolean | Promise<boolean>;

/** Options of {@link runsHandler}. */
export interface RunsHandlerOptions {
  /**
   * The path the routes live under, e.g. `/api` for `POST /api/runs`. Default `''` (the
   * routes at the root). It starts with `/` and does not end with one. Under Express, mount
   * the handler with `app.use('/api', handler)` instead: Express strips the mount path.
   */
  readonly basePath?: string;
  /** The largest request body accepted, in bytes; a larger one is answered `413`. Default 1 MiB (1,048,576). */
  readonly maxBodyBytes?: number;
  /**
   * Milliseconds between `: keep-alive` comments on an event stream, which stop proxies from
   * closing a connection while the model thinks. Default 15,000; 0 turns them off.
   */
  readonly keepAliveMs?: number;
  /**
   * What to do with a request outside the routes: `false` (the default) answers `404`;
   * `true` leaves it alone (nothing is written) and the handler returns `false`, so the
   * caller can serve it. A `next` callback passed to the handler (Express) is called instead.
   */
  readonly fallthrough?: boolean;
  /**
   * Who may use the routes: called with each request the handler takes; `false` (or a
   * promise of it) answers `401` with `WWW-Authenticate: Bearer`, and a throw `500`. Default:
   * everyone, so put the handler behind your own authentication or give this hook, e.g. a
   * bearer token compared with `crypto.timingSafeEqual` (see docs/http.md).
   */
  readonly authorize?: RunsAuthorizer;
  /**
   * The most runs started through this handler that may run at once (a start whose body is
   * still arriving counts too, and so does a compaction, `POST /sessions/:id/compact`: its
   * summary is a model request, and so does a conversation whose background tasks outlive its
   * run, until they settle: one slot per conversation); one more is answered `429` with `Retry-After`. Bounds the
   * memory and the model requests one client can make the server hold. Default 16. A
   * {@link RunSlots} instead of a number is a cap shared with every handler given the same
   * one (`rxharness serve` shares one between its runs, AG-UI, chat and A2A routes).
   */
  readonly maxRuns?: number | RunSlots;
  /**
   * Milliseconds a request body may take to arrive in full; a slower one (a body sent a byte
   * at a time holds memory and a socket) is answered `408` and its connection closed.
   * Default 10,000.
   */
  readonly bodyTimeoutMs?: number;
  /**
   * The most requests that start no run whose bodies may be read at once: answers to
   * approvals, and A2A requests read while every `maxRuns` slot is taken (`tasks/get`,
   * `tasks/cancel`, ...). One more is answered `429` with `Retry-After` before its body is
   * read, and its connection closed. These slots are the handler's own, never `maxRuns`':
   * runs holding every run slot (waiting for an approval, say) never keep them from being
   * answered or read. Default 8.
   */
  readonly maxControlRequests?: number;
}

/** The options with their defaults, checked. */
export interface ResolvedRunsOptions {
  readonly basePath: string;
  readonly maxBodyBytes: number;
  readonly keepAliveMs: number;
  readonly fallthrough: boolean;
  readonly authorize: RunsAuthorizer | undefined;
  /** The runs' slots: the handler's own, or the shared ones given as `maxRuns`. */
  readonly slots: RunSlots;
  readonly bodyTimeoutMs: number;
  /** The slots of requests that start no run (`maxControlRequests`), the handler's own. */
  readonly controlSlots: RunSlots;
}

const MIB = 1024 * 1024;

/** Applies the defaults; an invalid option is a `TypeError`/`RangeError` naming it, thrown when the handler is made. */
export function resolveRunsOptions(options: RunsHandlerOptions): ResolvedRunsOptions {
  const basePath = options.basePath ?? '';
  if (typeof basePath !== 'string' || (basePath !== '' && !/^(\/[A-Za-z0-9._~!$&'()*+,;=:@%-]+)+$/.test(basePath))) {
    throw new TypeError(`basePath must be '' or a path like "/api" (starting with "/", no trailing "/"), got ${JSON.stringify(basePath)}`);
  }
  const maxBodyBytes = options.maxBodyBytes ?? MIB;
  if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes < 1) {
    throw new RangeError(`maxBodyBytes must be a whole number of bytes, at least 1, got ${String(maxBodyBytes)}`);
  }
  const keepAliveMs = options.keepAliveMs ?? 15_000;
  if (!Number.isFinite(keepAliveMs) || keepAliveMs < 0 || keepAliveMs > MAX_TIMER_MS) {
    throw new RangeError(`keepAliveMs must be a number of milliseconds from 0 (off) to ${MAX_TIMER_MS}, got ${String(keepAliveMs)}`);
  }
  if (options.authorize !== undefined && typeof options.authorize !== 'function') {
    throw new TypeError(`authorize must be a function (req) => boolean | Promise<boolean>, got ${typeof options.authorize}`);
  }
  const slots = options.maxRuns instanceof RunSlots ? options.maxRuns : new RunSlots(options.maxRuns ?? 16);
  const bodyTimeoutMs = options.bodyTimeoutMs ?? 10_000;
  if (!Number.isFinite(bodyTimeoutMs) || bodyTimeoutMs < 1 || bodyTimeoutMs > MAX_TIMER_MS) {
    throw new RangeError(`bodyTimeoutMs must be a number of milliseconds from 1 to ${MAX_TIMER_MS}, got ${String(bodyTimeoutMs)}`);
  }
  const controlSlots = controlSlotsOf(options.maxControlRequests ?? 8);
  return { basePath, maxBodyBytes, keepAliveMs, fallthrough: options.fallthrough === true, authorize: options.authorize, slots, bodyTimeoutMs, controlSlots };
}

/** A handler's slots for requests that start no run; a bad `max` is a `RangeError` naming `maxControlRequests`. */
function controlSlotsOf(max: number): RunSlots {
  const refusal = `too many requests that start no run (answers to approvals, reads of tasks) at once: ${max} are being read here (maxControlRequests); try again shortly`;
  return new RunSlots(max, { option: 'maxControlRequests', refusal });
}
