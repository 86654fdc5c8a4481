import { Observable, type SchedulerLike } from 'rxjs';
import type { ModelChunk } from './chat-model.js';
import { watchIdle } from './idle-watchdog.js';
import { ModelError } from './model-error.js';
import { nodeBodyOf } from './node-http-response.js';
import { markPartialReply } from './partial-reply.js';
import { readJsonCompletion } from './read-json-completion.js';
import { chunks, readSse, type StreamProgress } from './read-sse.js';
import type { ReplyLimit } from './reply-limit.js';
import type { RequestCancel } from './request-cancel.js';
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

/** `application/json`, with or without parameters; not `application/x-ndjson`. */
const JSON_TYPE = /\bjson\b/i;

/**
 * The chunks of one successful (2xx) response: an SSE stream read as it arrives, or a whole
 * JSON completion from a server that ignored `stream: true`. From the headers on, a silence
 * longer than `timeoutMs` aborts the exchange and errors with a `ModelError` saying so; so
 * does a stream cut before its end, and a reply larger than `context.limit` allows. Errors
 * after an abort by the subscriber are dropped.
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
    const progress: StreamProgress = { received: 0, events: 0 };
    let idle = false;
    const watchdog = watchIdle(() => progress.received, timeoutMs, context.scheduler, () => {
      idle = true;
      abort.abort();
    });
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
          markPartialReply(e, { chars: progress.chars ?? 0, usage: progress.usage });
          out.error(e);
        };
        if (idle) {
          const message = `the server sent nothing for ${timeoutMs} ms (timeoutMs) after ${chunks(progress.events)}: the stream was abandoned`;
          failed(new ModelError(`model "${model}": ${message}`, { cause: error }));
        } else if (!abort.aborted) failed(toModelError(error, model));
      },
    );
    return () => watchdog.unsubscribe();
  });
}
