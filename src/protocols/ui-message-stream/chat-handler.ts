import { map, Subscription } from 'rxjs';
import { readJsonBody } from '../../http/read-json-body.js';
import { eventStreamResponse } from '../event-stream-response.js';
import { resolveProtocolOptions, type ProtocolHandlerOptions } from '../protocol-options.js';
import { protocolRoute, type ProtocolRequestHandler } from '../protocol-route.js';
import { startStreamedRun } from '../start-streamed-run.js';
import type { ProtocolEngine } from '../protocol-engine.js';
import { readChatRequest } from './chat-request.js';
import { toUiMessageStream } from './to-ui-message-stream.js';

/** The header that tells the AI SDK's client this is a UI message stream, and its version. */
const UI_MESSAGE_STREAM_HEADER = { 'x-vercel-ai-ui-message-stream': 'v1' } as const;

/**
 * Serves the engine's main agent to the AI SDK's `useChat` (its default transport posts to
 * `/api/chat`): `POST { id, messages }` starts a run in the session named by the chat `id`
 * with the last message, a user message, as the prompt (earlier turns are in the session),
 * and answers with the run as a UI message stream (server-sent `data: <chunk>`, then
 * `data: [DONE]`; header `x-vercel-ai-ui-message-stream: v1`), mapped as
 * {@link toUiMessageStream} maps it: text, reasoning, tool parts, and each subagent a
 * `data-task` part updated in place.
 *
 * The same guards as `runsHandler`: `authorize` (`401`), `maxRuns` (`429` with `Retry-After`),
 * a chat another run is using (`409`); a body that is not a chat request is `400`. A client
 * that aborts the request (`stop()`) cancels the run.
 *
 * @example
 * ```ts
 * const engine = new HarnessEngine({ model });
 * http.createServer(chatHandler(engine, { path: '/api/chat', authorize })).listen(3000);
 * // useChat({ transport: new DefaultChatTransport({ api: '/api/chat', headers: { authorization: `Bearer ${token}` } }) })
 * ```
 */
export function chatHandler(engine: ProtocolEngine, options: ProtocolHandlerOptions = {}): ProtocolRequestHandler {
  const o = resolveProtocolOptions(options);
  const slots = o.slots;
  return protocolRoute(o, async (req, res) => {
    const release = slots.take();
    let chat;
    try {
      chat = readChatRequest(await readJsonBody(req, o.maxBodyBytes, o.bodyTimeoutMs));
    } catch (error) {
      release();
      throw error;
    }
    const run = await startStreamedRun(engine, release, chat.prompt, { sessionId: chat.chatId }, res);
    if (run === undefined) return; // the client is gone
    const out = eventStreamResponse(res, UI_MESSAGE_STREAM_HEADER, o.keepAliveMs);
    const attachment = new Subscription();
    let finished = false;
    res.once('close', () => {
      if (finished) return;
      attachment.unsubscribe();
      engine.runs.cancel(run.runId);
    });
    attachment.add(
      engine.runs
        .attach(run.runId)
        .pipe(
          map(({ event }) => event),
          toUiMessageStream(),
        )
        .subscribe({
          next: (chunk) => out.send(chunk),
          complete: () => {
            finished = true;
            out.end('data: [DONE]\n\n');
          },
        }),
    );
  });
}
