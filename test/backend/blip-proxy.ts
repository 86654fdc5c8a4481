/**
 * A TCP proxy to a real `redis-server` whose connections can all be cut, and new ones refused
 * for a while: an outage of Redis on one side only (a network blip), the server and its data
 * untouched.
 *
 * @module
 */
import { connect, createServer, type Socket } from 'node:net';

/** The proxy: give `url` to the side that should see the outage. */
export interface BlipProxy {
  readonly url: string;
  /**
   * Cuts every connection and refuses new ones for `ms` (`Infinity`: until `restore`).
   * Refused at the TCP level (nothing listens meanwhile): a connection accepted and dropped
   * would count as a reconnect, and Redis's commands would wait instead of failing.
   */
  cut(ms: number): void;
  /** Accepts connections again (after `cut`). */
  restore(): void;
  close(): Promise<void>;
}

/** Starts a proxy to the Redis server listening on `redisPort` (127.0.0.1). */
export async function blipProxy(redisPort: number): Promise<BlipProxy> {
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(redisPort, '127.0.0.1');
    sockets.add(client).add(upstream);
    client.pipe(upstream).pipe(client);
    const drop = (): void => void (client.destroy(), upstream.destroy(), sockets.delete(client), sockets.delete(upstream));
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as { port: number };
  const restore = (): void => {
    if (!server.listening) server.listen(port, '127.0.0.1');
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    cut: (ms) => {
      server.close();
      for (const s of sockets) s.destroy();
      if (Number.isFinite(ms)) setTimeout(restore, ms);
    },
    restore,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        if (server.listening) server.close(() => r());
        else r();
      }),
  };
}
