/**
 * `run --json` writing to a socket (a parent's `spawn(..., { stdio: 'pipe' })`), whose writes
 * are asynchronous: every line the reader has not taken waits in stdout's buffer. A reader
 * that stops reading must not make it hold the whole run: past 32 MiB unread the run is
 * stopped (exit 1, said on stderr); a reader that pauses and reads on within the bound gets
 * every line. A real socket pair, the reader paused.
 */
import { type AddressInfo, createServer, type Server, Socket } from 'node:net';
import { Observable } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_UNREAD_OUTPUT } from '../../src/cli/json-output.js';
import { presentRun } from '../../src/cli/present-run.js';
import type { AgentEvent } from '../../src/events/index.js';
import { testCliIO } from './test-cli-io.js';

const DELTA_CHARS = 64 * 1024;
const delta = (i: number): AgentEvent => ({ type: 'ReasonDelta', runId: 'r', agentName: 'a', step: 1, kind: 'text', text: `${i}:`.padEnd(DELTA_CHARS, 'x') });
const runEnd: AgentEvent = { type: 'RunEnd', runId: 'r', agentName: 'a', text: 'done', abnormal: false, steps: 1, metrics: { durationMs: 1, promptTokens: 0, completionTokens: 0, totalTokens: 0, toolCalls: 0, modelCalls: 1 } } as unknown as AgentEvent;

interface Model {
  readonly events$: Observable<AgentEvent>;
  /** How many deltas the run has emitted so far. */
  emitted(): number;
  /** Whether the run was unsubscribed before its end. */
  stopped(): boolean;
}

/** A run of `count` big deltas then its RunEnd, a few per macrotask as a model's stream comes. */
function fastModel(count: number): Model {
  let emitted = 0;
  let stopped = false;
  const events$ = new Observable<AgentEvent>((subscriber) => {
    const timer = setInterval(() => {
      for (let n = 0; n < 8 && emitted < count; n++) subscriber.next(delta(emitted++));
      if (emitted < count) return;
      clearInterval(timer);
      subscriber.next(runEnd);
      subscriber.complete();
    }, 0);
    return () => {
      clearInterval(timer);
      if (emitted < count) stopped = true;
    };
  });
  return { events$, emitted: () => emitted, stopped: () => stopped };
}

let server: Server | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

/** A connected socket pair: `writer` (the CLI's stdout) and `reader` (the parent), paused. */
async function socketPair(): Promise<{ writer: Socket; reader: Socket }> {
  const accepted = new Promise<Socket>((resolve) => (server = createServer(resolve)));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const reader = new Socket();
  reader.pause();
  await new Promise<void>((resolve) => reader.connect((server!.address() as AddressInfo).port, '127.0.0.1', resolve));
  const writer = await accepted;
  sockets.push(reader, writer);
  return { writer, reader };
}

describe('run --json when stdout is a socket whose reader does not keep up', () => {
  it('a reader that stops reading: the run is stopped past the bound, and the unread output never grows past it', async () => {
    const { writer } = await socketPair();
    const cli = { ...testCliIO(), stdout: writer };
    // 48 MiB of deltas: more than the bound
    const model = fastModel(Math.ceil((1.5 * MAX_UNREAD_OUTPUT) / DELTA_CHARS));
    let mostUnread = 0;
    const watched$ = new Observable<AgentEvent>((subscriber) =>
      model.events$.subscribe({
        next: (e) => {
          mostUnread = Math.max(mostUnread, writer.writableLength);
          subscriber.next(e);
        },
        error: (e: unknown) => subscriber.error(e),
        complete: () => subscriber.complete(),
      }),
    );
    const shown = presentRun(watched$, true, cli);
    expect(await shown.code).toBe(1);
    shown.stop();
    expect(cli.stderrText()).toBe(
      'rxharness: the reader of stdout fell more than 32 MiB behind the --json output, so the run was stopped. Read the output as it comes, or write it to a file (--json > run.ndjson).\n',
    );
    expect(model.stopped()).toBe(true);
    // at most one line past the bound ever waited (each line is a delta and some JSON around it)
    expect(mostUnread).toBeLessThanOrEqual(MAX_UNREAD_OUTPUT + DELTA_CHARS + 200);
    expect(writer.writableLength).toBeLessThanOrEqual(MAX_UNREAD_OUTPUT + DELTA_CHARS + 200);
  }, 60_000);

  it('a reader that pauses and reads on within the bound gets every line, in order, and the run ends with 0', async () => {
    const { writer, reader } = await socketPair();
    const cli = { ...testCliIO(), stdout: writer };
    const count = Math.floor(MAX_UNREAD_OUTPUT / 2 / DELTA_CHARS); // 16 MiB waits while paused
    const model = fastModel(count);
    const shown = presentRun(model.events$, true, cli);
    expect(await shown.code).toBe(0); // the whole run was produced while nobody read
    shown.stop();
    let text = '';
    reader.setEncoding('utf8');
    reader.on('data', (chunk: string) => (text += chunk));
    reader.resume();
    await new Promise<void>((resolve) => writer.end(resolve));
    await new Promise((resolve) => reader.once('end', resolve));
    const lines = text.trimEnd().split('\n').map((l) => JSON.parse(l) as AgentEvent);
    expect(lines.length).toBe(count + 1);
    expect(lines.slice(0, -1).map((e) => (e as { text: string }).text.split(':')[0])).toEqual(Array.from({ length: count }, (_, i) => String(i)));
    expect(lines.at(-1)?.type).toBe('RunEnd');
    expect(cli.stderrText()).toBe('');
  }, 60_000);
});
