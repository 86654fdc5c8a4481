/**
 * The client of the SSE tests that does not keep up: it asks for the stream and never reads,
 * so the loopback socket's buffers fill and the server's writes start to wait.
 *
 * @module
 */
import net from 'node:net';
import type { ServerPerTest } from '../support/http-server-per-test.js';

/**
 * Opens a connection to `port` on 127.0.0.1, tracked by `served` (destroyed after the test),
 * sends a GET and never reads the answer: the socket stays paused. Its errors (the server
 * cutting it) are the point of the tests, so they are swallowed.
 */
export function neverReadingClient(served: Pick<ServerPerTest, 'track'>, port: number): net.Socket {
  const socket = served.track(net.connect(port, '127.0.0.1'));
  socket.pause();
  socket.on('error', () => undefined);
  socket.write('GET / HTTP/1.1\r\nHost: localhost\r\n\r\n');
  return socket;
}
