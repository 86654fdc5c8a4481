/**
 * A `GET` over a keep-alive agent that is sent again when the server closed the reused
 * connection just as the request went out: what a browser does, and what the load clients
 * of `bench/serve-load` need.
 *
 * Why: a client that reuses an idle keep-alive connection races the server's idle timeout
 * (Node's `server.keepAliveTimeout`, 5 s). Under load the race is lost often: the load
 * clients read a run's `201` and send its `GET /events` on the same connection, but when
 * either process lags more than that timeout behind, the server's timer fires before it
 * reads the `GET`, so it closes a connection with unread data and the kernel answers with a
 * reset (`ECONNRESET`, `req.reusedSocket` true). The request never reached the server's
 * handler; a `GET` is idempotent; browsers and HTTP/1.1 (RFC 9112 §9.3.1) send it again on a
 * fresh connection. Node's client does not, which made a third of the event streams of a
 * loaded 300-run bench fail in every build, serve's and not.
 *
 * @module
 */
import http from 'node:http';

/** Attempts at most: each failed one drops a stale pooled connection, so the next differs. */
const ATTEMPTS = 4;

/**
 * Sends `GET url` with `options` (an `agent` with `keepAlive`, headers) and resolves with the
 * response once its headers arrive. A reset of a reused connection before any response is
 * retried (up to {@link ATTEMPTS} attempts); any other failure rejects with its error. Errors
 * after the response began are the response's (`'error'`, `'aborted'`): the caller's to handle.
 */
export function getRetryingReset(url: string, options: http.RequestOptions, attempts = ATTEMPTS): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = http.get(url, options, (res) => {
      answered = true;
      resolve(res);
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (answered) return; // the response reports it
      if (req.reusedSocket && error.code === 'ECONNRESET' && attempts > 1) resolve(getRetryingReset(url, options, attempts - 1));
      else reject(error);
    });
  });
}
