/**
 * A TCP proxy to a real `redis-server` whose connections can all be cut, and new ones refused
 * for a while: an outage of Redis on one side only (a network blip), the server and its data
 * untouched. Or blackholed: a silent partition, where nothing comes through and nobody hears
 * of it.
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
  /**
   * A silent partition, until `heal`: nothing is forwarded either way and nothing is closed
   * (no FIN, no RST). The connections open now stay silent for good, as flows that a
   * partition outlasted (a NAT or load balancer forgot them): their packets are dropped, a
   * close is passed on to nobody. A connection made meanwhile waits, as a connect whose SYN
   * is dropped retries: what it sends is held, and goes through once healed.
   */
  blackhole(): void;
  /** Ends the partition: the connections made during it, and new ones, reach Redis. */
  heal(): void;
  /** How many connections it accepted so far: one more is a client that connected again. */
  accepted(): number;
  /** How many sockets of its own are open (both ends of each connection): to tell them from a client's in a leak check. */
  openSockets(): number;
  close(): Promise<void>;
}

type PairState = 'open' | 'held' | 'silent';

interface Pair {
  state: PairState;
  /** What came while held, for each direction: sent once healed. */
  readonly held: [Socket, Buffer][];
}

/** Starts a proxy to the Redis server listening on `redisPort` (127.0.0.1). */
export async function blipProxy(redisPort: number): Promise<BlipProxy> {
  const sockets = new Set<Socket>();
  /** The pairs not silenced for good: `blackhole` silences the open ones, `heal` opens the held ones. */
  const pairs = new Set<Pair>();
  let partitioned = false;
  let accepted = 0;
  // Half open allowed: a silenced connection must not answer the client's FIN with its own.
  const server = createServer({ allowHalfOpen: true }, (client) => {
    accepted += 1;
    const upstream = connect(redisPort, '127.0.0.1');
    sockets.add(client).add(upstream);
    const pair: Pair = { state: partitioned ? 'held' : 'open', held: [] };
    pairs.add(pair);
    // Chunk by chunk rather than `pipe`: a pair silenced drops what comes, a held one keeps it.
    const forward = (from: Socket, to: Socket): void =>
      void from.on('data', (chunk: Buffer) => {
        if (pair.state === 'open') to.write(chunk);
        else if (pair.state === 'held') pair.held.push([to, chunk]);
      });
    forward(client, upstream);
    forward(upstream, client);
    const closed = (socket: Socket) => (): void => {
      socket.destroy();
      sockets.delete(socket);
      if (pair.state === 'silent') return; // the other side never hears of it
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
      pairs.delete(pair);
    };
    client.on('error', closed(client)).on('close', closed(client));
    client.on('end', () => pair.state === 'silent' || closed(client)());
    upstream.on('error', closed(upstream)).on('close', closed(upstream));
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
    blackhole: () => {
      partitioned = true;
      for (const pair of pairs) {
        if (pair.state !== 'open') continue;
        pair.state = 'silent';
        pairs.delete(pair);
      }
    },
    heal: () => {
      partitioned = false;
      for (const pair of pairs) {
        pair.state = 'open';
        for (const [to, chunk] of pair.held.splice(0)) to.write(chunk);
      }
    },
    accepted: () => accepted,
    openSockets: () => sockets.size,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        if (server.listening) server.close(() => r());
        else r();
      }),
  };
}
