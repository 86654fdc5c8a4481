/**
 * An A2A client in its own process, for the tests: `@a2a-js/sdk`'s `ClientFactory` reads
 * the card at `<base URL>` (with `Authorization: Bearer <token>` when `A2A_TOKEN` is set),
 * then acts, printing one JSON line per thing it received:
 *
 * ```sh
 * node --import tsx a2a-client-script.ts <base URL> stream <prompt> [--cancel-on-stdin] [--legacy]
 * node --import tsx a2a-client-script.ts <base URL> card
 * ```
 *
 * `stream` sends the prompt with `message/stream` (`SendStreamingMessage`; `--legacy`: A2A
 * 0.3's `message/stream`) and prints each update: `{ kind, state?, text?, name?, meta? }`;
 * with `--cancel-on-stdin` it calls `tasks/cancel` once the task has started and a line
 * arrived on stdin (the test says when), printing its answer; last, the task from `tasks/get`. An error prints `{ kind: 'error', message }`.
 *
 * @module
 */
import { Role, TaskState, type Part, type StreamResponse } from '@a2a-js/sdk';
import { ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory } from '@a2a-js/sdk/client';

const [base = '', command = 'card', prompt = 'hello', ...flags] = process.argv.slice(2);
const token = process.env.A2A_TOKEN;
const authed: typeof fetch = (input, init) =>
  fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string> | undefined), ...(token ? { authorization: `Bearer ${token}` } : {}) } });
const legacy = flags.includes('--legacy');
const print = (line: object): void => void process.stdout.write(`${JSON.stringify(line)}\n`);
const text = (parts: readonly Part[] | undefined): string => (parts ?? []).map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('');

async function main(): Promise<void> {
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl: authed, legacyCompat: { enabled: true } })],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl: authed }),
      ...(legacy ? { preferredTransports: ['JSONRPC'] } : {}),
    }),
  );
  if (command === 'card') {
    const resolver = new DefaultAgentCardResolver({ fetchImpl: authed });
    const card = await resolver.resolve(base);
    return print({ kind: 'card', name: card.name, skills: card.skills.map((s) => ({ name: s.name, description: s.description })), interfaces: card.supportedInterfaces });
  }
  const card = await new DefaultAgentCardResolver({ fetchImpl: authed }).resolve(base);
  // --legacy: only the 0.3 interface is offered to the factory, so its 0.3 transport is chosen.
  const offered = legacy ? { ...card, supportedInterfaces: card.supportedInterfaces.filter((i) => i.protocolVersion === '0.3') } : card;
  const client = await factory.createFromAgentCard(offered);
  print({ kind: 'client', protocolVersion: client.protocolVersion });
  const message = { messageId: `m-${Date.now()}`, contextId: '', taskId: '', role: Role.ROLE_USER, parts: [{ content: { $case: 'text' as const, value: prompt }, metadata: undefined, filename: '', mediaType: 'text/plain' }], metadata: undefined, extensions: [], referenceTaskIds: [] };
  let taskId = '';
  let cancelled = false;
  for await (const response of client.sendMessageStream({ tenant: '', message, configuration: undefined, metadata: undefined })) {
    const line = describe(response);
    if (line.taskId) taskId = line.taskId;
    print(line);
    if (flags.includes('--cancel-on-stdin') && !cancelled && line.kind === 'task-start') {
      cancelled = true;
      await new Promise((resolve) => process.stdin.once('data', resolve));
      process.stdin.pause();
      const task = await client.cancelTask({ tenant: '', id: taskId, metadata: undefined });
      print({ kind: 'cancelled', state: TaskState[task.status?.state ?? 0] });
    }
  }
  if (taskId) {
    const task = await client.getTask({ tenant: '', id: taskId });
    print({ kind: 'task', state: TaskState[task.status?.state ?? 0], artifacts: task.artifacts.map((a) => ({ name: a.name, text: text(a.parts) })) });
  }
}

function describe(response: StreamResponse): { kind: string; taskId?: string; [key: string]: unknown } {
  const payload = response.payload;
  switch (payload?.$case) {
    case 'task':
      return { kind: 'task-start', taskId: payload.value.id, contextId: payload.value.contextId, state: TaskState[payload.value.status?.state ?? 0] };
    case 'statusUpdate':
      return { kind: 'status', taskId: payload.value.taskId, state: TaskState[payload.value.status?.state ?? 0], text: text(payload.value.status?.message?.parts), meta: payload.value.metadata };
    case 'artifactUpdate':
      return { kind: 'artifact', taskId: payload.value.taskId, name: payload.value.artifact?.name, text: text(payload.value.artifact?.parts), append: payload.value.append, lastChunk: payload.value.lastChunk, meta: payload.value.artifact?.metadata };
    case 'message':
      return { kind: 'message', text: text(payload.value.parts) };
    default:
      return { kind: 'unknown' };
  }
}

main().catch((error: unknown) => {
  print({ kind: 'error', message: error instanceof Error ? error.message : String(error) });
  process.exitCode = 1;
});
