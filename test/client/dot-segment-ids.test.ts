/**
 * Ids that are dot segments. `encodeURIComponent` leaves `.` as it is, and `fetch` resolves
 * `.` and `..` (and `%2e` spellings) in a path before it sends: `cancelTask(base, run, '..')`
 * was `DELETE <base>/runs/<run>`, the cancel of the whole run, and an approval id `..` posted
 * its answer to the run itself. A task or approval id comes from the stream (a compromised
 * server, a proxy), a run or conversation id from the page's address (any site can link to
 * it): the client refuses such an id before it sends anything.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { firstValueFrom } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { answerApproval, cancelRun, cancelTask, deleteSession, fromRun, getRun, getSession } from '../../src/client/index.js';

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

/** A real server that answers 202 (and `{}`) to everything and records what reached it: `METHOD /path`. */
async function recordingServer(): Promise<{ base: string; seen: string[] }> {
  const seen: string[] = [];
  server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    res.writeHead(202, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${(server!.address() as AddressInfo).port}/api`, seen };
}

const failure = (promise: Promise<unknown>): Promise<unknown> => promise.then(() => 'answered', (e: unknown) => e);

describe('the client and ids that are dot segments', () => {
  it('a task id ".." never becomes the cancel of the whole run; nothing is sent for any such id', async () => {
    const { base, seen } = await recordingServer();
    for (const id of ['..', '.', '']) {
      const calls = [
        () => cancelTask(base, 'run_1', id),
        () => answerApproval(base, 'run_1', { approvalId: id, taskId: 'task_1' }, 'approve'),
        () => cancelRun(base, id),
        () => getRun(base, id),
        () => getSession(base, id),
        () => deleteSession(base, id),
        () => firstValueFrom(fromRun(base, id)),
      ];
      for (const call of calls) {
        const error = await failure(call());
        expect(error, JSON.stringify(id)).toBeInstanceOf(TypeError);
        expect((error as TypeError).message).toMatch(/^(runId|taskId|approvalId|sessionId) must be an id the server gave, not /);
      }
    }
    expect(seen).toEqual([]);
  });

  it('any other id stays one segment of its own route, however odd its characters', async () => {
    const { base, seen } = await recordingServer();
    await cancelTask(base, 'run_1', '../../x?y#z');
    await cancelTask(base, 'run_1', '...');
    // `%` is encoded too: a `%2e` spelling goes as `%252e`, which no URL resolves as a dot segment, so it is sent.
    await getSession(base, '%2e%2E').catch(() => undefined); // the recording server's `{}` is no conversation
    await deleteSession(base, '.%2e').catch(() => undefined); // nor its 202 a delete's 204
    expect(seen).toEqual([
      'DELETE /api/runs/run_1/tasks/..%2F..%2Fx%3Fy%23z',
      'DELETE /api/runs/run_1/tasks/...',
      'GET /api/sessions/%252e%252E',
      'DELETE /api/sessions/.%252e',
    ]);
  });
});
