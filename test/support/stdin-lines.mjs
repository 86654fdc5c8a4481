/**
 * The JSON-RPC reader of the hand-written stdio test servers (`mcp-flood-stdio-server.mjs`,
 * `test/mcp/support/chatty-stdio-server.mjs`).
 *
 * @module
 */

/**
 * Reads stdin as lines of JSON, one message a line, and hands each to `onMessage` (blank lines
 * are skipped). Split by hand rather than with `readline`: `process.stdin.pause()` must stop
 * the reading at once, and a server that stops reading is what some tests are about.
 *
 * @param {(message: any) => void} onMessage called with each message, in order
 */
export function readStdinLines(onMessage) {
  let buffered = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk) => {
    buffered += chunk;
    let end;
    while ((end = buffered.indexOf('\n')) >= 0) {
      const one = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      if (one.trim()) onMessage(JSON.parse(one));
    }
  });
}
