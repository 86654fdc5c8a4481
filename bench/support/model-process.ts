/**
 * The process side of the benchmarks' fake models (`first-byte-model.ts` and
 * `paced-model.ts`), each run in its own process so that its work is not measured as
 * the client's.
 *
 * @module
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Listens with `server` on a free loopback port, prints one line `{"baseURL": ...}` for the
 * parent to read, and closes the server (its kept-alive connections too) when stdin closes
 * or on SIGTERM: the parent ending takes the model with it.
 */
export async function serveModelProcess(server: Server): Promise<void> {
  // Clients reuse their connections across a whole benchmark: don't drop idle ones between requests.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const stop = (): void => {
    server.close();
    server.closeAllConnections();
  };
  process.stdin.on('end', stop).on('close', stop).resume();
  process.once('SIGTERM', stop);
  process.stdout.write(`${JSON.stringify({ baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` })}\n`);
}
