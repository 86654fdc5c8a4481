/**
 * A TCP proxy to a real `redis-server` that makes Redis refuse commands of a transaction in
 * place, as it does when its ACLs change between the queuing of a `MULTI` and its `EXEC`
 * (Redis checks them again then): armed, it holds the `EXEC` of the next transaction whose
 * commands include `trigger` until Redis has queued them, runs `change` (an `ACL SETUSER`
 * from another connection), then lets the `EXEC` through. Nothing of the client is replaced.
 *
 * @module
 */
import { createServer, connect, type AddressInfo } from 'node:net';

const MULTI = '*1\r\n$5\r\nmulti\r\n';
const EXEC = '*1\r\n$4\r\nexec\r\n';
const QUEUED = '+QUEUED\r\n';

/** The proxy: connect a client to `port`. */
export interface ExecHoldProxy {
  readonly port: number;
  /** Holds the next transaction whose commands include `trigger` (bytes as sent, e.g. a key), running `change` before its `EXEC`. */
  arm(trigger: string, change: () => Promise<unknown>): void;
  close(): Promise<void>;
}

/** Starts a proxy to the Redis server listening on `redisPort` (127.0.0.1). */
export async function execHoldProxy(redisPort: number): Promise<ExecHoldProxy> {
  let armed: { trigger: string; change: () => Promise<unknown> } | undefined;
  const server = createServer((client) => {
    const upstream = connect(redisPort, '127.0.0.1');
    let queued = 0;
    let tail = '';
    let onQueued = (): void => undefined;
    upstream.on('data', (data: Buffer) => {
      // A reply split across chunks is counted once: the tail is shorter than one.
      const text = tail + data.toString('latin1');
      queued += text.split(QUEUED).length - 1;
      tail = text.slice(-(QUEUED.length - 1));
      client.write(data);
      onQueued();
    });
    let pending = '';
    let chain = Promise.resolve();
    const forward = async (): Promise<void> => {
      const multi = pending.indexOf(MULTI);
      const exec = pending.indexOf(EXEC, Math.max(multi, 0));
      if (multi >= 0 && exec < 0) return; // a transaction still arriving: wait for its EXEC
      const held = armed !== undefined && exec >= 0 && pending.slice(multi, exec).includes(armed.trigger) ? armed : undefined;
      const text = pending;
      pending = '';
      if (!held) return void upstream.write(Buffer.from(text, 'latin1'));
      armed = undefined;
      const base = queued;
      const count = commandCount(text.slice(multi, exec)) - 1; // those after MULTI
      upstream.write(Buffer.from(text.slice(0, exec), 'latin1'));
      await new Promise<void>((queuedAll) => (onQueued = () => queued - base >= count && queuedAll()));
      onQueued = () => undefined;
      await held.change();
      upstream.write(Buffer.from(text.slice(exec), 'latin1'));
    };
    client.on('data', (data: Buffer) => {
      pending += data.toString('latin1');
      chain = chain.then(forward);
    });
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  return {
    port: (server.address() as AddressInfo).port,
    arm: (trigger, change) => (armed = { trigger, change }),
    close: () =>
      new Promise<void>((closed) => {
        server.close(() => closed());
      }),
  };
}

/** How many commands (arrays of bulk strings, as clients send them) the text holds. */
function commandCount(text: string): number {
  let count = 0;
  for (let pos = 0; pos < text.length; count++) {
    let end = text.indexOf('\r\n', pos);
    const args = Number(text.slice(pos + 1, end));
    pos = end + 2;
    for (let i = 0; i < args; i++) {
      end = text.indexOf('\r\n', pos);
      pos = end + 2 + Number(text.slice(pos + 1, end)) + 2;
    }
  }
  return count;
}
