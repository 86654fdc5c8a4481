import { markInvisible } from '../text/visible-text.js';
import { shownUrl } from '../text/shown-url.js';
import { HarnessWorker } from '../backend/harness-worker.js';
import { redisBackend } from '../backend/redis-backend.js';
import type { CliIO } from './cli-io.js';
import { parseFlags } from './parse-flags.js';
import type { FlagConfig } from './flag-without-value.js';
import { CliUsageError } from './cli-usage-error.js';
import { WORKER_HELP } from './help-text.js';
import { printed } from './printed.js';
import { shownError } from './shown-error.js';
import { ENGINE_FLAGS, engineOptionsFromFlags, MODEL_FLAGS, modelFromFlags } from './engine-flags.js';
import { integerFlag } from './integer-flag.js';
import { checkRedisUrl, REDIS_URL_FORMS_SAID } from './redis-url-usage.js';

const OPTIONS = {
  redis: { type: 'string', secret: true, env: 'RXHARNESS_REDIS_URL' },
  prefix: { type: 'string' },
  concurrency: { type: 'string' },
  ...MODEL_FLAGS,
  ...ENGINE_FLAGS,
  help: { type: 'boolean', short: 'h' },
} as const satisfies Readonly<Record<string, FlagConfig>>;

/** No Redis given: the message names every form it may take, not only `redis://`. */
const NO_REDIS = `no Redis: pass --redis URL or set RXHARNESS_REDIS_URL; ${REDIS_URL_FORMS_SAID}`;

/**
 * `rxharness worker`: runs delegated tasks pulled from Redis for the engines sharing it,
 * until Ctrl+C or SIGTERM, which fails the tasks running here ("the worker shut down"), closes the
 * connections and exits 0. Resolves the exit code: 0 after Ctrl+C, 1 when Redis cannot be
 * reached, 2 bad usage.
 *
 * @example
 * ```ts
 * process.exitCode = await workerCommand(['--redis', 'redis://127.0.0.1:6379', '--demo'], processIO());
 * ```
 */
export async function workerCommand(argv: readonly string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseFlags('worker', { args: [...argv], options: OPTIONS, allowPositionals: true });
  if (values.help) return printed(io, WORKER_HELP);
  if (positionals.length > 0) throw new CliUsageError(`worker takes no PROMPT (got "${positionals.join(' ')}"): it runs the tasks engines delegate`);
  const url = values.redis ?? io.env.RXHARNESS_REDIS_URL;
  if (!url) throw new CliUsageError(NO_REDIS);
  checkRedisUrl(url, values.redis !== undefined ? '--redis' : 'RXHARNESS_REDIS_URL');
  const concurrency = integerFlag('--concurrency', values.concurrency ?? '10', 1);
  const model = modelFromFlags(values, io);
  // Checked (numbers, --mcp-config files) before Redis is reached.
  const engineFlags = engineOptionsFromFlags(values, io);
  let interrupted!: () => void;
  const interrupt = new Promise<void>((done) => (interrupted = done));
  // A worker is usually stopped by its supervisor (systemd, Kubernetes): SIGTERM drains it too (see INTERRUPT_SIGNALS).
  const stopInterrupts = io.onInterrupt(() => interrupted());
  try {
    const backend = await redisBackend({ url, ...(values.prefix !== undefined ? { prefix: values.prefix } : {}) });
    let worker: HarnessWorker;
    try {
      worker = new HarnessWorker({
        model,
        backend,
        concurrency,
        ...engineFlags,
      });
      await worker.ready;
    } catch (e) {
      await backend.close();
      throw e;
    }
    // The URL and the workspace's path are the user's text, shown on a terminal: escape sequences marked, not obeyed.
    const shown = `${markInvisible(shownUrl(url))} (concurrency ${concurrency}, workspace ${markInvisible(worker.workspace)}; Ctrl+C stops it)`;
    io.stdout.write(`rxharness worker: ${worker.workerId} pulling tasks from ${shown}\n`);
    await interrupt;
    io.stderr.write('\nStopping: failing the tasks running here and closing the connections...\n');
    await worker.close();
    await backend.close();
    return 0;
  } catch (e) {
    // Redis's answer or the URL may hold escape sequences: marked like any error the CLI prints.
    io.stderr.write(`rxharness: ${shownError(e)}\n`);
    return 1;
  } finally {
    stopInterrupts();
  }
}
