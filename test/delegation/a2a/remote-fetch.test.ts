import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { HarnessEngineOptions } from '../../../src/engine/engine-options.js';
import type { RunEndEvent, TaskWrapEvent } from '../../../src/events/agent-event.js';
import { isTaskWrap } from '../../../src/events/guards.js';
import type { RemoteA2ARequest } from '../../../src/delegation/a2a/remote-a2a-options.js';
import { MAX_A2A_BODY_BYTES } from '../../../src/delegation/a2a/remote-fetch.js';
import { defineAgent } from '../../../src/subagent/define-agent.js';
import { closedAfterEach } from '../../support/closed-after-each.js';
import { startDelegationFixture, type DelegationFixture } from '../../support/delegation-fixture.js';
import { steps, taskReply } from '../../support/delegation-script.js';
import { endlessBody, startRecordingServer, type Pumped, type RecordingServer } from './recording-server.js';
import { startScriptedRemote, type ScriptedRemote } from './scripted-remote.js';

const open = closedAfterEach<{ hostile: RecordingServer; card: ScriptedRemote; elsewhere: ScriptedRemote; fixture: DelegationFixture }>(['hostile', 'card', 'elsewhere', 'fixture']);

/** Runs a main agent delegating to the remote agent `remote` at `cardUrl`; the remote child's `RunEnd`. */
async function delegate(cardUrl: string, options: Partial<HarnessEngineOptions> = {}): Promise<RunEndEvent> {
  const fixture = (open.fixture = await startDelegationFixture({ main: steps(taskReply('remote', 'Do it', 'Job')) }));
  const engine = fixture.engine(options, [defineAgent({ name: 'remote', description: 'remote', systemPrompt: '', a2a: cardUrl })]);
  try {
    const events = await lastValueFrom(engine.stream('Delegate it').pipe(toArray()));
    const ends = (events.filter(isTaskWrap) as TaskWrapEvent[]).flatMap((w) => (w.event.type === 'RunEnd' ? [w.event] : []));
    expect(ends).toHaveLength(1);
    return ends[0]!;
  } finally {
    await engine.close();
  }
}

const CARD_PATH = '/.well-known/agent-card.json';

describe('redirects from a remote A2A agent', () => {
  it.each([
    ['its card', 302, 'card'],
    ['the JSON-RPC endpoint its card names', 307, 'rpc'],
  ] as const)('are not followed, from %s: the task fails naming both URLs, and the other host gets nothing', async (_, status, where) => {
    // Were it followed, this well-behaved agent would answer, with the key decided for the first host only.
    open.elsewhere = await startScriptedRemote('answer');
    const target = where === 'card' ? open.elsewhere.cardUrl : open.elsewhere.cardUrl.replace(CARD_PATH, '/a2a');
    open.hostile = await startRecordingServer((_req, res) => res.writeHead(status, { location: target }).end());
    const { base } = open.hostile;
    let cardUrl = `${base}${CARD_PATH}`;
    if (where === 'rpc') {
      open.card = await startScriptedRemote('answer', 0, `${base}/a2a`);
      cardUrl = open.card.cardUrl;
    }
    const headers = ({ url }: RemoteA2ARequest) => (url.startsWith(base) ? { 'x-api-key': 'api-key-for-one-host-only' } : undefined);
    const end = await delegate(cardUrl, { a2a: { headers } });
    expect(open.hostile.seen.map((r) => r.headers['x-api-key'])).toEqual(['api-key-for-one-host-only']);
    expect(open.elsewhere.requests).toEqual([]);
    const redirected = where === 'card' ? cardUrl : `${base}/a2a`;
    expect(end).toMatchObject({ abnormal: true });
    expect(end.error).toContain(
      `failed: ${redirected} redirected (${status}) to ${target}: redirects are not followed, so that credentials meant for one URL never reach another; use the URL it redirects to in its place (the definition's a2a, or the card's JSON-RPC URL)`,
    );
  });
});

describe('bodies of a remote A2A agent other than its event stream', () => {
  /** The message a body over the cap fails its task with. */
  const overCap = (url: string) => `failed: ${url} sent an answer over ${MAX_A2A_BODY_BYTES} bytes, more than an agent card or a JSON-RPC answer needs: its reading was stopped`;

  it.each([
    ['a card that never ends', 'application/json'],
    // Only a response to message/stream, which asks for one, is read as the event stream.
    ['a card that never ends, calling itself an event stream', 'text/event-stream'],
  ])('%s is read up to 1 MiB, then the task fails and the connection is closed', async (_, contentType) => {
    let pumped: Pumped | undefined;
    open.hostile = await startRecordingServer((_req, res) => void (pumped = endlessBody(res, contentType, 100)));
    const cardUrl = `${open.hostile.base}${CARD_PATH}`;
    const end = await delegate(cardUrl);
    expect(end.abnormal).toBe(true);
    expect(end.error).toContain(overCap(cardUrl));
    // Of the 100 MiB, the client took the first one and whatever the sockets held: not the rest.
    expect(pumped).toMatchObject({ finished: false, mib: expect.any(Number) });
    expect(pumped!.mib).toBeLessThan(10);
  });

  it('a JSON-RPC answer that never ends (not an event stream) is cut at 1 MiB too', async () => {
    let pumped: Pumped | undefined;
    open.hostile = await startRecordingServer((_req, res) => void (pumped = endlessBody(res, 'application/json', 100)));
    open.card = await startScriptedRemote('answer', 0, `${open.hostile.base}/a2a`);
    const end = await delegate(open.card.cardUrl);
    expect(open.hostile.seen.map((r) => [r.method, r.headers.accept])).toEqual([['POST', 'text/event-stream']]);
    expect(end.error).toContain(overCap(`${open.hostile.base}/a2a`));
    expect(pumped!.finished).toBe(false);
    expect(pumped!.mib).toBeLessThan(10);
  });
});
