/**
 * An AG-UI frontend in its own process: `@ag-ui/client`'s `HttpAgent` (the protocol's own
 * client, which verifies the event sequence) talking to an `agUiHandler`. It prints one JSON
 * line per thing it received: `{ kind: 'event', round, event }` for each AG-UI event,
 * `{ kind: 'round', round, outcome, pendingToolCallIds, interrupts }` when a run ends,
 * `{ kind: 'toolCall', round, toolCallId, name }` for each call its `onNewToolCall` hears (at the
 * call's `TOOL_CALL_END`: where a client that runs calls as they come would run it),
 * `{ kind: 'error', round, message }`, and `{ kind: 'done', messages }` last.
 *
 * node --import tsx test/protocols/ag-ui/ag-ui-client-process.ts '<ClientScript JSON>'
 */
import { HttpAgent, type Message, type Tool } from '@ag-ui/client';

/** What the client does. */
export interface ClientScript {
  readonly url: string;
  readonly token?: string;
  readonly threadId: string;
  readonly prompt: string;
  /** Frontend tools to send with every run. */
  readonly tools?: readonly Tool[];
  /** Abort the run (`abortRun`) on the first event of this type. */
  readonly abortOn?: string;
  /** The result to send for every frontend tool call left pending. */
  readonly toolResult?: string;
  /** The decision to send for every interrupt. */
  readonly decision?: 'approve' | 'reject';
  /** A new user message to send (once) instead of answering what the run left pending. */
  readonly followUp?: string;
}

const script = JSON.parse(process.argv[2] ?? '{}') as ClientScript;
const print = (line: unknown): void => void process.stdout.write(`${JSON.stringify(line)}\n`);

const agent = new HttpAgent({
  url: script.url,
  threadId: script.threadId,
  headers: script.token === undefined ? {} : { authorization: `Bearer ${script.token}` },
  initialMessages: [{ id: 'user-1', role: 'user', content: script.prompt }],
});

let pending: string[] = [];
let followedUp = false;
for (let round = 1; round <= 5; round++) {
  pending = [];
  let aborted = false;
  try {
    await agent.runAgent(
      {
        tools: [...(script.tools ?? [])],
        ...(agent.pendingInterrupts.length > 0 && script.decision
          ? { resume: agent.pendingInterrupts.map((i) => ({ interruptId: i.id, status: 'resolved' as const, payload: { decision: script.decision } })) }
          : {}),
      },
      {
        onEvent: ({ event }) => {
          print({ kind: 'event', round, event });
          if (script.abortOn !== undefined && event.type === script.abortOn && !aborted) {
            aborted = true;
            agent.abortRun();
          }
        },
        onNewToolCall: ({ toolCall }) => print({ kind: 'toolCall', round, toolCallId: toolCall.id, name: toolCall.function.name }),
        onRunFinishedEvent: (params) => {
          pending = params.outcome === 'success' ? [...(params.pendingToolCallIds ?? [])] : [];
          print({ kind: 'round', round, outcome: params.outcome, pendingToolCallIds: pending, interrupts: params.outcome === 'interrupt' ? params.interrupts : [] });
        },
      },
    );
  } catch (error) {
    print({ kind: 'error', round, message: error instanceof Error ? error.message : String(error) });
    break;
  }
  if (aborted) break;
  if (agent.pendingInterrupts.length > 0 && script.decision) continue;
  if (pending.length > 0 && script.toolResult !== undefined) {
    for (const id of pending) agent.addMessage({ id: `tool-${id}`, role: 'tool', toolCallId: id, content: script.toolResult } as Message);
    continue;
  }
  if (pending.length > 0 && script.followUp !== undefined && !followedUp) {
    followedUp = true;
    agent.addMessage({ id: 'user-2', role: 'user', content: script.followUp });
    continue;
  }
  break;
}
print({ kind: 'done', messages: agent.messages });
