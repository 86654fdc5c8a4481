import { markInvisible } from '../text/visible-text.js';
import { redisBackend, type RedisBackend } from '../backend/redis-backend.js';
import { errorMessage } from '../errors/error-message.js';
import { errnoOf } from '../errors/errno-of.js';
import { startDemoServer, type DemoServer } from '../web/demo-server.js';
import { checkServeToken } from '../web/serve-token.js';
import { isWildcardAddress } from '../web/trusted-host.js';
import type { CliIO } from './cli-io.js';
import { parseFlags } from './parse-flags.js';
import type { FlagConfig } from './flag-without-value.js';
import { CliUsageError } from './cli-usage-error.js';
import { SERVE_HELP } from './help-text.js';
import { printed } from './printed.js';
import { shownError } from './shown-error.js';
import { ENGINE_FLAGS, engineOptionsFromFlags, MODEL_FLAGS, modelFromFlags } from './engine-flags.js';
import { integerFlag } from './integer-flag.js';
import { checkRedisUrl } from './redis-url-usage.js';
import { APPROVAL_FLAGS, approvalTimeoutOption, SERVE_APPROVAL_TIMEOUT_MS } from './approval-timeout-flag.js';

const OPTIONS = {
  ...MODEL_FLAGS,
  ...ENGINE_FLAGS,
  port: { type: 'string' },
  host: { type: 'string' },
  // Secret: a message never repeats it (a word after --token may be the token itself).
  token: { type: 'string', secret: true, env: 'RXHARNESS_TOKEN' },
  'max-runs': { type: 'string' },
  'max-control-requests': { type: 'string' },
  yes: { type: 'boolean' },
  ...APPROVAL_FLAGS,
  redis: { type: 'string', secret: true },
  prefix: { type: 'string' },
  distribute: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies Readonly<Record<string, FlagConfig>>;

/**
 * `rxharness serve`: serves the live page and the runs routes for a model (or `--demo`),
 * prints the address, and runs until Ctrl+C (or SIGTERM), which closes the engine
 * (cancelling its runs: every open page shows them cancelled) and the server, then exits 0.
 * Resolves the exit code: 0 after Ctrl+C, 1 when the server cannot start (a port in use),
 * 2 bad usage.
 *
 * @example
 * ```ts
 * process.exitCode = await serveCommand(['--demo', '--port', '0'], processIO());
 * ```
 */
export async function serveCommand(argv: readonly string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseFlags('serve', { args: [...argv], options: OPTIONS, allowPositionals: true });
  if (values.help) return printed(io, SERVE_HELP);
  if (positionals.length > 0) throw new CliUsageError(`serve takes no PROMPT (got "${positionals.join(' ')}"): prompts are typed on the page`);
  const port = integerFlag('--port', values.port ?? '4173', 0);
  if (port > 65_535) throw new CliUsageError(`--port must be a whole number from 0 to 65535, got "${values.port ?? ''}"`);
  const token = tokenFrom(values.token, io.env.RXHARNESS_TOKEN);
  if (values.redis !== undefined) checkRedisUrl(values.redis, '--redis');
  const maxRuns = values['max-runs'] !== undefined ? integerFlag('--max-runs', values['max-runs'], 1) : undefined;
  const maxControl = values['max-control-requests'];
  const maxControlRequests = maxControl !== undefined ? integerFlag('--max-control-requests', maxControl, 1) : undefined;
  const model = modelFromFlags(values, io);
  // Checked (numbers, --mcp-config files) before Redis is reached or anything listens.
  const { workspace, homeDir, ...engineFlags } = engineOptionsFromFlags(values, io);
  // Stop listening for Ctrl+C only once everything is closed (see present-run.ts: a library
  // re-raising SIGINT when it finds no listener would kill the process before the cleanup).
  let interrupted!: () => void;
  const interrupt = new Promise<void>((done) => (interrupted = done));
  const stopInterrupts = io.onInterrupt(() => interrupted());
  let server: DemoServer;
  // With --redis: runs, sessions and approvals shared with other instances; tasks on workers.
  const backend = values.redis !== undefined ? await scaleOut(values.redis, values.prefix, io) : undefined;
  if (backend === null) {
    stopInterrupts();
    return 1;
  }
  try {
    server = await startDemoServer({
      port,
      model,
      ...(values.host !== undefined ? { host: values.host } : {}),
      ...(token !== undefined ? { token } : {}),
      ...(maxRuns !== undefined ? { maxRuns } : {}),
      ...(maxControlRequests !== undefined ? { maxControlRequests } : {}),
      workspace,
      ...(homeDir !== undefined ? { homeDir } : {}),
      engine: {
        ...engineFlags,
        // without --yes, calls that ask wait for an answer on the page
        ...(values.yes ? { approve: () => ({ decision: 'approve' as const }) } : {}),
        // Nobody may be watching the page: a call waits 10 minutes by default, then is rejected.
        ...approvalTimeoutOption(values['approval-timeout'], SERVE_APPROVAL_TIMEOUT_MS),
        ...(backend ? { backend, distributeTasks: values.distribute ?? false } : {}),
      },
    });
  } catch (error) {
    stopInterrupts();
    await backend?.close();
    if (errnoOf(error) === 'EADDRINUSE') {
      io.stderr.write(`rxharness: port ${port} is in use: pick another with --port (0 picks a free one)\n`);
      return 1;
    }
    throw error instanceof CliUsageError ? error : new CliUsageError(errorMessage(error));
  }
  // The model's name, the host and the workspace's path are the user's text (a folder name, a
  // variable), shown on a terminal: each escape sequence in them is marked, not obeyed.
  const what = values.demo ? 'the offline demo model' : `model ${markInvisible(values.model ?? io.env.RXHARNESS_MODEL ?? '')}`;
  const workspaceShown = markInvisible(server.engine.workspace);
  if (!server.loopback) {
    const host = markInvisible(values.host ?? '');
    const where = isWildcardAddress(values.host ?? '') ? `every interface (${host})` : host;
    io.stderr.write(
      `rxharness: warning: listening on ${where}, reachable from other machines: anyone with the token can run commands in ${workspaceShown}. Send the address only over a channel you trust, and prefer an HTTPS proxy in front.\n`,
    );
  }
  io.stdout.write(`rxharness serve: ${markInvisible(server.url)}  (${what}, workspace ${workspaceShown}; Ctrl+C stops it)\n`);
  await interrupt;
  io.stderr.write('\nStopping: cancelling the runs and closing the server...\n');
  try {
    await server.close();
    await backend?.close();
  } finally {
    stopInterrupts();
  }
  return 0;
}

/** The token of `--token`, else `RXHARNESS_TOKEN`, checked; undefined: a new random one. */
function tokenFrom(flag: string | undefined, env: string | undefined): string | undefined {
  const [value, source] = flag !== undefined ? [flag, '--token'] : env !== undefined && env !== '' ? [env, 'RXHARNESS_TOKEN'] : [undefined, ''];
  if (value === undefined) return undefined;
  try {
    return checkServeToken(value, source);
  } catch (error) {
    throw new CliUsageError(errorMessage(error));
  }
}

/** The Redis backend of `--redis`, or null (after saying why) when Redis cannot be reached. */
async function scaleOut(url: string, prefix: string | undefined, io: CliIO): Promise<RedisBackend | null> {
  try {
    return await redisBackend({ url, ...(prefix !== undefined ? { prefix } : {}) });
  } catch (error) {
    // Redis's answer, or the URL as given: marked like any error the CLI prints.
    io.stderr.write(`rxharness: ${shownError(error)}\n`);
    return null;
  }
}
