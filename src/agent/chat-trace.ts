import type { ModelFinish } from '../model/chat-model.js';
import type { ModelSettings } from '../model/model-settings.js';
import { chatSpan, endSpan } from '../telemetry/spans.js';
import type { RunState } from './run-state.js';

/** The `chat <model>` span of one model request, ended once whichever way the request ends. */
export interface ChatTrace {
  /** Ends the span with the request's finish (its usage and finish reason) or its failure. */
  end(finish: ModelFinish | undefined, failure?: string | Error): void;
  /** Ends the span of a request cut short (unsubscribed before its end), marked `rxharness.chat.stopped` as runs and calls are. */
  stop(): void;
}

/**
 * The trace of one model request of `run` (a step's, or its compaction's summary): a `chat`
 * span under the run's span, or undefined when the run is not traced. Only the first end
 * counts, so a request's error, its end and its teardown may each try.
 */
export function chatTrace(run: RunState, modelId: string, settings: ModelSettings | undefined): ChatTrace | undefined {
  if (!run.trace) return undefined;
  const span = chatSpan(modelId, settings, run.trace.context).span;
  let ended = false;
  return {
    end(finish, failure) {
      if (ended) return;
      ended = true;
      const usage = finish?.usage;
      endSpan(span, failure, {
        'gen_ai.usage.input_tokens': usage?.promptTokens,
        'gen_ai.usage.output_tokens': usage?.completionTokens,
        'gen_ai.response.finish_reasons': finish?.finishReason === undefined ? undefined : [finish.finishReason],
      });
    },
    stop() {
      if (ended) return;
      ended = true;
      endSpan(span, undefined, { 'rxharness.chat.stopped': true });
    },
  };
}
