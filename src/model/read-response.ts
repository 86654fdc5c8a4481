import { Observable, type SchedulerLike } from 'rxjs';
import type { ModelChunk } from './chat-model.js';
import { watchIdle, type IdleCause } from './idle-watchdog.js';
import { ModelError } from './model-error.js';
import { nodeBodyOf } from './node-http-response.js';
import { markPartialReply, usageWithLater } from './partial-reply.js';
import { readJsonCompletion } from './read-json-completion.js';
import { readSse } from './read-sse.js';
import type { ReplyLimit } from './reply-limit.js';
import type { RequestCancel } from './request-cancel.js';
import { chunks } from './sse-failures.js';
import { keepAliveNames, type StreamProgress } from './stream-progress.js';
import { toModelError } from './to-model-error.js';

/** What {@link readResponse} needs besides the response. */
export interface ReadContext {
  /** The model id, for messages. */
  readonly model: string;
  /** The longest silence allowed from the headers on. */
  readonly timeoutMs: number;
  /** Where the idle watchdog runs. */
  readonly scheduler: SchedulerLike;
  /** Aborts the HTTP exchange; aborted here when the server goes silent. */
  readonly abort: RequestCancel;
  /** Called once the body has been read to its end, before the finish goes out. */
  readonly onBodyRead?: () => void;
  /** Whether a streamed body's deltas are handed on (`false`: the request said nobody reads them). */
  readonly deltas: boolean;
  /** How much the reply may bring before it is given up (see reply-limit.ts). */
  readonly limit: ReplyLimit;
}

/**
 * How many times `timeoutMs` keep-alives alone may hold a reply: a slow first token behind a
 * server's `: PROCESSING` comments is waited for, a server that only pings is not, for ever.
 */
const KEEP_ALIVE_LIMITS = 4;

/** `application/json`, with or without parameters; not `application/x-ndjson`. */
const JSON_TYPE = /\bjson\b/i;

/**
 * The chunks of one successful (2xx) response: an SSE stream read as it arrives, or a whole
 * JSON completion from a server that ignored `stream: true`. From the headers on, a silence
 * longer than `timeoutMs` aborts the exchange and errors with a `ModelError` saying so (each
 * read of a JSON body breaks a silence, as an event of a stream does), and so do keep-alives
 * alone (comments, events that bring nothing of the reply, `event:`/`id:`/`retry:` lines and
 * blank lines) for {@link KEEP_ALIVE_LIMITS} times
 * `timeoutMs`; so does a stream cut before its end, and a reply larger than `context.limit`
 * allows. Errors after an abort by the subscriber are dropped.
 */
export function readResponse(response: Response, context: ReadContext): Observable<ModelChunk> {
  return new Observable<ModelChunk>((out) => {
    const { model, abort, timeoutMs } = context;
    const json = JSON_TYPE.test(response.headers.get('content-type') ?? '');
    // The node:http transport's body is read as the Node stream it is; any other fetch's as its web stream.
    const body = json ? undefined : (nodeBodyOf(response) ?? response.body);
    if (!json && !body) {
      // A 2xx all the same: the server took the prompt, which the token budget is charged.
      const error = new ModelError(`model "${model}": the response has no body to stream`);
      markPartialReply(error, { chars: 0 });
      out.error(error);
      return undefined;
    }
    const progress: StreamProgress = { received: 0, events: 0, keepAlives: 0, keepAliveKinds: 0 };
    let idle: IdleCause | undefined;
    // Keep-alives show the server alive, but hold a reply that brings nothing else only so long.
    // The kinds seen are forgotten at each piece of the reply (noticed here, off the hot path):
    // the message then names what came since the last one.
    let known = 0;
    const news = {
      news: (): number => {
        if (progress.received !== known) {
          known = progress.received;
          progress.keepAliveKinds = 0;
        }
        return known;
      },
      limitMs: KEEP_ALIVE_LIMITS * timeoutMs,
    };
    const activity = (): number => progress.received + progress.keepAlives;
    const watchdog = watchIdle(activity, timeoutMs, context.scheduler, (cause) => {
      idle = cause;
      abort.abort();
    }, news);
    const read = body ? readSse(body, out, progress, model, context.deltas, context.limit) : readJsonCompletion(response, out, model, context.limit, progress);
    read.then(
      (finish) => {
        watchdog.unsubscribe();
        // A stream cut at a flood of tool calls was not read to its end: the request is aborted,
        // not left to drain (a whole JSON body was read: its socket may already serve another).
        if (finish.toolCallsCut && body) abort.abort();
        context.onBodyRead?.();
        out.next(finish);
        out.complete();
      },
      (error: unknown) => {
        watchdog.unsubscribe();
        // The response began: what it brought is noted with its error, for the token budget to charge.
        const failed = (e: ModelError): void => {
          markPartialReply(e, { chars: progress.chars ?? 0, usage: usageWithLater(progress.usage, progress.charsAfterUsage) });
          out.error(e);
        };
        if (idle) failed(new ModelError(`model "${model}": ${idleMessage(idle, timeoutMs, progress, json)}`, { cause: error }));
        else if (!abort.aborted) failed(toModelError(error, model));
      },
    );
    return () => watchdog.unsubscribe();
  });
}

/** Why the watchdog gave the reply up: nothing came for `timeoutMs`, or only keep-alives for {@link KEEP_ALIVE_LIMITS} times that. */
function idleMessage(cause: IdleCause, timeoutMs: number, progress: StreamProgress, json: boolean): string {
  const after = json ? `${progress.chars ?? 0} characters of a JSON completion` : chunks(progress.events);
  if (cause === 'silence') return `the server sent nothing for ${timeoutMs} ms (timeoutMs) after ${after}: the ${json ? 'response' : 'stream'} was abandoned`;
  const what = `keep-alives (${keepAliveNames(progress.keepAliveKinds)})`;
  return `the server sent only ${what} for ${KEEP_ALIVE_LIMITS * timeoutMs} ms (${KEEP_ALIVE_LIMITS} x timeoutMs) after ${after}: the stream was abandoned`;
}
