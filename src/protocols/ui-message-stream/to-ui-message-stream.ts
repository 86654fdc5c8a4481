import { Observable, Subscription, type OperatorFunction } from 'rxjs';
import type { AgentEvent } from '../../events/agent-event.js';
import type { UiMessageChunk } from './ui-message-chunk.js';
import { UiMessageMapper } from './ui-message-mapper.js';

/**
 * An RxJS operator from one run's events (`engine.stream(...)`) to the chunks of the AI SDK's
 * UI message stream (what `useChat` reads; see docs/protocols.md for the mapping): `start`
 * first, then the message's steps, text, reasoning, tool parts and `data-task` parts (one
 * per subagent, updated in place), then exactly one `finish` (the run's own `RunEnd`; after
 * an `error` when it ended abnormally) or `error` (the stream's error, which the operator
 * turns into a chunk and does not pass on). A subagent's `RunEnd` only updates its part.
 *
 * @example
 * ```ts
 * engine.stream(prompt, { sessionId: chatId })
 *   .pipe(toUiMessageStream())
 *   .subscribe({ next: (chunk) => res.write(`data: ${JSON.stringify(chunk)}\n\n`), complete: () => res.end('data: [DONE]\n\n') });
 * ```
 */
export function toUiMessageStream(): OperatorFunction<AgentEvent, UiMessageChunk> {
  return (source) =>
    new Observable<UiMessageChunk>((subscriber) => {
      const mapper = new UiMessageMapper();
      let ended = false;
      const end = (chunks: readonly UiMessageChunk[]): void => {
        ended = true;
        for (const chunk of chunks) subscriber.next(chunk);
        subscriber.complete();
      };
      // A run that ends synchronously completes the subscriber inside subscribe(): the teardown must exist first.
      const subscription = new Subscription();
      subscription.add(
        source.subscribe({
          next: (event) => {
            if (ended) return;
            for (const chunk of mapper.map(event)) subscriber.next(chunk);
            if (event.type === 'RunEnd') end(mapper.finish(event));
          },
          error: (error: unknown) => {
            if (!ended) end(mapper.fail(error));
          },
          complete: () => {
            if (!ended) end(mapper.fail(new Error('the run ended without its RunEnd event')));
          },
        }),
      );
      return subscription;
    });
}
