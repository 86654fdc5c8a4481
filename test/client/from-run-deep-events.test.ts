/**
 * fromRun against a real HTTP server whose events nest arrays and objects too deep: `JSON.parse`
 * reads any depth, but a subscriber that walks the event (`JSON.stringify`, a view) overflows
 * its stack. Such a message ends the stream with a `BadMessage` naming the limit; the deepest
 * event a run really sends (64 TaskWraps around a call whose arguments nest as deep as the
 * engine keeps them) still passes. The JSON is written out by hand: JSON.stringify recurses.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_DEPTH } from '../../src/agent/defaults.js';
import { MAX_MESSAGE_DEPTH } from '../../src/client/read-run-stream.js';
import { fromRun, RunStreamError } from '../../src/client/index.js';
import type { SequencedEvent } from '../../src/runs/run-types.js';
import { MAX_JSON_DEPTH } from '../../src/validation/json-depth.js';
import { END, frame, RUN, runEnd, runStart } from './fake-events-server.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

/** Serves `body` as the event stream of every GET; resolves the base URL and the requests seen. */
async function serve(body: string): Promise<{ baseUrl: string; requests: string[] }> {
  const requests: string[] = [];
  server = createServer((req, res) => {
    requests.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(body);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

/** The event text `inner` under `wraps` TaskWraps, the first a child of the run. */
function wrapped(wraps: number, inner: string): string {
  let opens = '';
  for (let i = 1; i <= wraps; i++) {
    const fields = { type: 'TaskWrap', runId: `c_${i}`, agentName: 'w', parentRunId: i === 1 ? RUN : `c_${i - 1}`, taskId: `t${i}`, taskIndex: 1, taskAgentName: 'w', taskDescription: 'd', multitask: false };
    opens += `${JSON.stringify(fields).slice(0, -1)},"event":`;
  }
  return opens + inner + '}'.repeat(wraps);
}

/** An ActionStart of run `runId` whose one call's arguments nest `argsDepth` arrays deep. */
function actionStart(runId: string, argsDepth: number): string {
  const args = '['.repeat(argsDepth) + ']'.repeat(argsDepth);
  return `{"type":"ActionStart","runId":"${runId}","agentName":"w","step":1,"toolCalls":[{"callId":"c","name":"t","args":${args}}]}`;
}

const message = (seq: number, event: string): string => `id: ${seq}\ndata: {"runId":"${RUN}","seq":${seq},"event":${event}}\n\n`;

/** What the consumer saw (each event stringified, as a view or a log would) and how the stream ended. */
function outcome(events$: ReturnType<typeof fromRun>): Promise<{ seen: string[]; error?: unknown }> {
  const seen: string[] = [];
  return new Promise((resolve) =>
    events$.subscribe({
      next: (e: SequencedEvent) => seen.push(`${e.seq}:${e.event.type}:${JSON.stringify(e).length > 0}`),
      error: (error: unknown) => resolve({ seen, error }),
      complete: () => resolve({ seen }),
    }),
  );
}

describe('fromRun: events nested too deep', () => {
  it('an event nesting 100,000 arrays ends the stream with a BadMessage naming the limit, once, with no retry', async () => {
    const deep = `{"type":"ToolCallStart","runId":"${RUN}","agentName":"main","step":1,"callId":"c","toolName":"t","args":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const { baseUrl, requests } = await serve(frame(1, runStart) + message(2, deep) + frame(3, runEnd) + END);
    const { seen, error } = await outcome(fromRun(baseUrl, RUN));
    expect(seen).toEqual(['1:RunStart:true']);
    expect(RunStreamError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      serverName: 'BadMessage',
      endedBy: 'client',
      message: expect.stringContaining(`nests arrays and objects more than ${MAX_MESSAGE_DEPTH} deep`),
    });
    expect(requests).toHaveLength(1);
  });

  it('the deepest event a run sends passes: 64 TaskWraps around a call whose arguments nest as deep as the engine keeps them', async () => {
    const deepest = wrapped(64, actionStart('c_64', MAX_JSON_DEPTH));
    const { baseUrl } = await serve(frame(1, runStart) + message(2, deepest) + frame(3, runEnd) + END);
    expect(await outcome(fromRun(baseUrl, RUN))).toEqual({ seen: ['1:RunStart:true', '2:TaskWrap:true', '3:RunEnd:true'] });
  });

  it('one level more is refused', async () => {
    const deeper = wrapped(65, actionStart('c_65', MAX_JSON_DEPTH));
    const { baseUrl } = await serve(frame(1, runStart) + message(2, deeper) + frame(3, runEnd) + END);
    const { seen, error } = await outcome(fromRun(baseUrl, RUN));
    expect(seen).toEqual(['1:RunStart:true']);
    expect(error).toMatchObject({ serverName: 'BadMessage', message: expect.stringContaining(`more than ${MAX_MESSAGE_DEPTH} deep`) });
  });

  it('the bound is the envelope, the engine\'s argument depth and 64 TaskWraps; the engine wraps one per delegation level, 1 by default', () => {
    expect(MAX_MESSAGE_DEPTH).toBe(MAX_JSON_DEPTH + 4 + 64);
    expect(DEFAULT_MAX_DEPTH).toBe(1);
  });
});
