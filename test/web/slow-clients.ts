/**
 * Slow clients on raw sockets, for the tests of what `rxharness serve` does with them: each
 * sends the start of a request, then drips more of it, and the test reads what came back
 * and whether the server closed the socket.
 *
 * @module
 */
import { connect, type Socket } from 'node:net';
import { afterEach, expect } from 'vitest';

/** One slow client. */
export interface SlowClient {
  /** The answer's head (status line and headers), or all that came if the server closed the socket before a whole head. */
  readonly head: Promise<string>;
  /** Resolves `true` when the server closes the socket, `false` if it is still open after `deadlineMs` (counted from the call). */
  closedWithin(deadlineMs: number): Promise<boolean>;
}

/** What a slow client sends. */
export interface Drip {
  /** Sent at once on connecting ('' for nothing). */
  readonly first: string;
  /** Sent again and again after it, every {@link Drip.everyMs} (none when absent). */
  readonly more?: string;
  /** Default 100. */
  readonly everyMs?: number;
}

/** Opens slow clients for the tests of the calling file; their sockets are destroyed after each test. */
export function useSlowClients(): (port: number, drip: Drip) => SlowClient {
  const sockets: Socket[] = [];
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.destroy();
  });
  return (port, drip) => {
    const socket = connect(port, '127.0.0.1');
    sockets.push(socket);
    let got = '';
    let timer: ReturnType<typeof setInterval> | undefined;
    socket.on('error', () => undefined);
    socket.on('connect', () => {
      if (drip.first !== '') socket.write(drip.first);
      if (drip.more !== undefined) timer = setInterval(() => socket.write(drip.more!), drip.everyMs ?? 100);
    });
    const closed = new Promise<void>((resolve) =>
      socket.on('close', () => {
        clearInterval(timer);
        resolve();
      }),
    );
    const head = new Promise<string>((resolve) => {
      socket.setEncoding('utf8').on('data', (chunk: string) => {
        got += chunk;
        if (got.includes('\r\n\r\n')) resolve(got.split('\r\n\r\n', 1)[0]!);
      });
      void closed.then(() => resolve(got));
    });
    return {
      head,
      closedWithin: (deadlineMs) =>
        new Promise<boolean>((resolve) => {
          const deadline = setTimeout(() => resolve(false), deadlineMs);
          void closed.then(() => {
            clearTimeout(deadline);
            resolve(true);
          });
        }),
    };
  };
}

/** A request refused before its body is read: the status line it must get, and its head with the body's first bytes. */
export interface UnreadRefusal {
  readonly status: string;
  readonly head: string;
}

/**
 * Sends every refusal at once, each on its own socket with its body trickling in after its
 * head (without the close each would wait out the deadline), and checks that each is answered
 * its status with `Connection: close` and its socket closed by the server within `deadlineMs`.
 */
export async function expectRefusalsClose(slow: (port: number, drip: Drip) => SlowClient, port: number, refusals: readonly UnreadRefusal[], deadlineMs: number): Promise<void> {
  const clients = refusals.map(({ head }) => slow(port, { first: head, more: 'a' }));
  const closed = await Promise.all(clients.map((client) => client.closedWithin(deadlineMs)));
  for (const [i, { status }] of refusals.entries()) {
    const answer = await clients[i]!.head;
    expect(answer.split('\r\n', 1)[0], status).toBe(`HTTP/1.1 ${status}`);
    expect(answer.toLowerCase(), status).toContain('connection: close');
    expect(closed[i], `${status}: the socket closed by the server`).toBe(true);
  }
}
