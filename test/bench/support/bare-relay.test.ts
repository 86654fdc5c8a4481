import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLineProcess } from '../../../bench/support/line-process.js';
import { openEvents } from '../../http/http-kit.js';
import { FakeOpenAIServer, type RecordedRequest } from '../../support/fake-openai-server.js';

/**
 * The serve-load benchmark's baseline (`bench/support/bare-relay.ts`) with each model client
 * it can be told to use: whatever the client, a run's frames are the same, so the rows that
 * compare relays compare clients and nothing else.
 */
const RELAY = fileURLToPath(new URL('../../../bench/support/bare-relay.ts', import.meta.url));

/** Each child answers with its own text, the main agent's last step with another. */
const textFor = (request: RecordedRequest): string => {
  const last = JSON.stringify(request.body).match(/part (\d)/)?.[1];
  return last === undefined ? 'the main answer' : `child ${last} says hello`;
};

let model: FakeOpenAIServer;
beforeAll(async () => {
  model = await FakeOpenAIServer.start({ handler: (request) => ({ text: textFor(request), chunkSize: 5 }) });
});
afterAll(() => model.close());

interface Frame {
  readonly id?: number;
  readonly event?: string;
  readonly data: { seq?: number; event?: { type: string; taskId?: string; text?: string; event?: { text: string } } };
}

/** One run through the relay started with `client`: its frames as a follower reads them. */
async function relayRun(client: string): Promise<Frame[]> {
  const relay = await startLineProcess(['--import', 'tsx', RELAY, model.baseURL], 'the relay', { RXHARNESS_LOAD_RELAY_CLIENT: client });
  try {
    const { url } = JSON.parse(relay.firstLine) as { url: string };
    const { runId } = (await (await fetch(`${url}/api/runs`, { method: 'POST', body: '{}' })).json()) as { runId: string };
    const stream = await openEvents(`${url}/api/runs/${runId}/events`);
    await stream.ended;
    return stream.frames.map((f) => ({ id: f.id === undefined ? undefined : Number(f.id), event: f.event, data: JSON.parse(f.data ?? '{}') as Frame['data'] }));
  } finally {
    await relay.stop();
  }
}

const textOf = (frames: readonly Frame[], taskId: string | undefined): string =>
  frames
    .filter((f) => f.data.event?.taskId === taskId)
    .map((f) => (taskId === undefined ? f.data.event?.text : f.data.event?.event?.text) ?? '')
    .join('');

describe('the bare relay of serve-load: the same run whatever its model client', () => {
  it.each(['http', 'openai-response', 'openai'])('RXHARNESS_LOAD_RELAY_CLIENT=%s relays both children and the main answer, numbered, then ends', async (client) => {
    const before = model.requests.length;
    const frames = await relayRun(client);
    // the four model requests of a run went through the client asked for (the openai package names itself)
    const sent = model.requests.slice(before);
    expect(sent).toHaveLength(4);
    expect(sent.map((r) => String(r.headers['user-agent']).startsWith('OpenAI/JS'))).toEqual(sent.map(() => client !== 'http'));
    const events = frames.filter((f) => f.event === undefined);
    expect(events.map((f) => f.id)).toEqual(events.map((_, i) => i + 1));
    expect(events.map((f) => f.data.seq)).toEqual(events.map((_, i) => i + 1));
    expect(textOf(events, 't1')).toBe('child 1 says hello');
    expect(textOf(events, 't2')).toBe('child 2 says hello');
    expect(textOf(events, undefined)).toBe('the main answer');
    // the main answer comes after both children's, and the stream ends once, last
    const firstMain = events.findIndex((f) => f.data.event?.type === 'ReasonDelta');
    expect(events.slice(firstMain).every((f) => f.data.event?.type === 'ReasonDelta')).toBe(true);
    expect(frames.filter((f) => f.event === 'end')).toEqual([frames.at(-1)]);
  }, 20_000);

  it('refuses a client it does not know, naming the ones it does', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', RELAY, model.baseURL], { env: { ...process.env, RXHARNESS_LOAD_RELAY_CLIENT: 'undici' }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (piece: Buffer) => (stderr += piece.toString()));
    const [code] = (await once(child, 'exit')) as [number];
    expect(code).not.toBe(0);
    expect(stderr).toContain('RXHARNESS_LOAD_RELAY_CLIENT is http, openai or openai-response (got "undici")');
  }, 20_000);
});
