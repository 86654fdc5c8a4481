/**
 * A `useChat` client in its own process: the `ai` package's `DefaultChatTransport` (what
 * `useChat` posts with) and `readUIMessageStream` (what builds the assistant message from
 * the stream, validating every chunk) against a `chatHandler`. It prints one JSON line per
 * state of the message it built, `{ kind: 'message', message }`, then `{ kind: 'error',
 * message }` if the request or the stream failed, and `{ kind: 'done' }` last.
 *
 * node --import tsx test/protocols/ui-message-stream/chat-client-process.ts '<ChatScript JSON>'
 */
import { DefaultChatTransport, readUIMessageStream, type UIMessage } from 'ai';

/** What the client does. */
export interface ChatScript {
  readonly url: string;
  readonly token?: string;
  readonly chatId: string;
  readonly prompt: string;
  /** Abort the request once the message has a part of this type (e.g. `text`). */
  readonly abortOnPart?: string;
}

const script = JSON.parse(process.argv[2] ?? '{}') as ChatScript;
const print = (line: unknown): void => void process.stdout.write(`${JSON.stringify(line)}\n`);

const transport = new DefaultChatTransport<UIMessage>({ api: script.url, headers: script.token === undefined ? {} : { authorization: `Bearer ${script.token}` } });
const abort = new AbortController();
try {
  const stream = await transport.sendMessages({
    trigger: 'submit-message',
    chatId: script.chatId,
    messageId: undefined,
    messages: [{ id: 'user-1', role: 'user', parts: [{ type: 'text', text: script.prompt }] }],
    abortSignal: abort.signal,
  });
  for await (const message of readUIMessageStream<UIMessage>({ stream, terminateOnError: true })) {
    print({ kind: 'message', message });
    if (script.abortOnPart !== undefined && message.parts.some((p) => p.type === script.abortOnPart)) {
      abort.abort();
      break;
    }
  }
} catch (error) {
  print({ kind: 'error', message: error instanceof Error ? error.message : String(error) });
}
print({ kind: 'done' });
