import type { Subscriber } from 'rxjs';
import type { ModelChunk, ModelFinish, ModelToolCall } from './chat-model.js';
import { ModelError } from './model-error.js';
import { readUsage, type WireUsage } from './read-usage.js';
import { MAX_TOOL_CALLS_PER_STEP } from './tool-call-cap.js';
import { withUniqueIds } from './tool-call-ids.js';
import { argumentsText } from './arguments-text.js';
import { nodeBodyOf } from './node-http-response.js';
import { readBodyText } from './read-body-text.js';
import { servedError, type WireError } from './served-error.js';
import { jsonTooLarge, type ReplyLimit } from './reply-limit.js';
import type { StreamProgress } from './stream-progress.js';

/** A whole `chat.completion` as odd servers may send it: every field may be missing. */
interface WireCompletion {
  readonly choices?: ReadonlyArray<{
    readonly message?: {
      readonly content?: string | null;
      readonly reasoning_content?: string | null;
      readonly reasoning?: string | null;
      readonly tool_calls?: ReadonlyArray<{ readonly id?: string; readonly function?: { readonly name?: string; readonly arguments?: string } }>;
    };
    readonly finish_reason?: string | null;
  }>;
  readonly usage?: WireUsage | null;
  readonly error?: WireError;
}

/**
 * Reads a 200 response whose body is one JSON `chat.completion` instead of a stream (servers
 * that ignore `stream: true` send that): emits its reasoning and text as one delta each and
 * returns the finish, as if it had been streamed. An `error` object in the body, or a body
 * that is not a completion, fails with a `ModelError` quoting what came. More tool calls than
 * MAX_TOOL_CALLS_PER_STEP: only those up to the first over it are kept, with `toolCallsCut`.
 * A body larger than `limit.jsonBytes` fails with a `ModelError` saying so, without being read
 * whole ({@link boundedText}). Each read of the body counts in `progress.received`, for the idle
 * watchdog. `progress.chars` says how much of the body was read, and
 * `progress.usage` the usage it carried, for the charge of a reply that fails after all.
 */
export async function readJsonCompletion(response: Response, out: Subscriber<ModelChunk>, model: string, limit: ReplyLimit, progress: StreamProgress): Promise<ModelFinish> {
  const raw = await boundedText(response, model, limit, progress);
  let body: WireCompletion;
  try {
    body = JSON.parse(raw) as WireCompletion;
  } catch {
    throw notACompletion(model, raw);
  }
  const usage = body?.usage ? readUsage(body.usage) : undefined;
  progress.usage = usage;
  if (body?.error) throw servedError(model, 'the server answered 200 with an error', body.error);
  const choice = body?.choices?.[0];
  if (!choice?.message) throw notACompletion(model, raw);
  const { message } = choice;
  const thinking = message.reasoning_content ?? message.reasoning;
  if (thinking) out.next({ type: 'thinking-delta', text: thinking });
  const text = message.content ?? '';
  if (text) out.next({ type: 'text-delta', text });
  const wire = message.tool_calls ?? [];
  if (!Array.isArray(wire)) throw notACompletion(model, raw);
  // A flood is cut as soon as the parse allows: only the calls up to the first over the limit are built.
  const cut = wire.length > MAX_TOOL_CALLS_PER_STEP;
  const toolCalls: ModelToolCall[] = withUniqueIds(
    (cut ? wire.slice(0, MAX_TOOL_CALLS_PER_STEP + 1) : wire).map((call) => ({ id: call?.id, name: call?.function?.name ?? '', arguments: argumentsText(call?.function?.arguments) })),
  );
  return {
    type: 'finish',
    text,
    toolCalls,
    usage,
    finishReason: choice.finish_reason ?? undefined,
    ...(cut ? { toolCallsCut: true } : {}),
  };
}

/**
 * The body as text, refused once it is larger than `limit.jsonBytes`: at once when its
 * `Content-Length` says so, else as soon as what arrived passes it (each character came in
 * at least one byte). The body is then stopped; the caller aborts the request.
 * `progress.chars` counts what arrived, the piece that passed the limit included.
 */
async function boundedText(response: Response, model: string, limit: ReplyLimit, progress: StreamProgress): Promise<string> {
  progress.chars = 0;
  if (Number(response.headers.get('content-length')) > limit.jsonBytes) throw jsonTooLarge(model, limit);
  const body = nodeBodyOf(response) ?? response.body;
  if (!body) return '';
  const parts: string[] = [];
  let chars = 0;
  await readBodyText(body, (text) => {
    // Every byte of it is the reply: a large body arriving slowly but steadily is judged by its silences, as a stream is.
    progress.received++;
    progress.chars = chars += text.length;
    if (chars > limit.jsonBytes) throw jsonTooLarge(model, limit);
    parts.push(text);
  });
  return parts.join('');
}

function notACompletion(model: string, raw: string): ModelError {
  const start = raw.length > 200 ? `${raw.slice(0, 200)}...` : raw;
  return new ModelError(`model "${model}": the server answered 200 with JSON that is not a chat completion: ${start}`);
}
