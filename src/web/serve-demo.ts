/**
 * `npm run demo:web`: serves the browser page of the live task tree on port 4173 (or
 * `PORT`), running the offline demo model on the current folder. Ctrl+C stops it.
 *
 * @module
 */
import { startDemoServer } from './demo-server.js';
import { errorMessage } from '../errors/error-message.js';
import { errnoOf } from '../errors/errno-of.js';

const rawPort = process.env.PORT ?? '4173';
try {
  if (!/^\d+$/.test(rawPort)) throw new RangeError(`PORT must be a whole number from 0 to 65535, got "${rawPort}"`);
  const server = await startDemoServer({ port: Number(rawPort) });
  process.stdout.write(`rxharness demo page: ${server.url}  (open it and press Run; Ctrl+C stops the server)\n`);
  const stop = (): void => {
    process.off('SIGINT', stop).off('SIGTERM', stop);
    void server.close();
  };
  process.on('SIGINT', stop).on('SIGTERM', stop);
} catch (error) {
  const message = errorMessage(error);
  const busy = errnoOf(error) === 'EADDRINUSE';
  process.stderr.write(`rxharness demo page: ${message}${busy ? ' (another program uses the port: set PORT=<free port>)' : ''}\n`);
  process.exitCode = 2;
}
