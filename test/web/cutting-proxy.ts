/**
 * A TCP proxy in front of a server, for tests that cut connections the way a network does:
 * `cutAll()` destroys every open connection on both sides at once.
 *
 * @module
 */
import net, { type Socket } from 'node:net';

/** A running proxy. */
export interface CuttingProxy {
  /** e.g. `http://127.0.0.1:4242/`. */
  readonly url: string;
  /** How many requests whose first line matches `pattern` went through so far. */
  requests(pattern: RegExp): number;
  /** Drops every open connection, both sides. */
  cutAll(): void;
  close(): Promise<void>;
}

/** Starts a proxy to `target` (an `http://host:port/` URL) on a free loopback port. */
export async function startCuttingProxy(target: string): Promise<CuttingProxy> {
  const { hostname, port } = new URL(target);
  const open = new Set<Socket>();
  const lines: string[] = [];
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(port), hostname);
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.on('error', () => undefined); // a cut is expected
    }
    client.on('data', (chunk: Buffer) => lines.push(...chunk.toString('latin1').split('\r\n').filter((l) => /^[A-Z]+ \//.test(l))));
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}/`,
    requests: (pattern) => lines.filter((line) => pattern.test(line)).length,
    cutAll: () => {
      for (const socket of open) socket.destroy();
    },
    close: async () => {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
