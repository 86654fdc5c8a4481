import { createRequire } from 'node:module';
import { agentsCommand } from './agents-command.js';
import type { CliIO } from './cli-io.js';
import { CliUsageError, isUsageError } from './cli-usage-error.js';
import { MAIN_HELP } from './help-text.js';
import { printed } from './printed.js';
import { runCommand } from './run-command.js';
import { serveCommand } from './serve-command.js';
import { shownError } from './shown-error.js';
import { workerCommand } from './worker-command.js';
import { closest } from '../errors/did-you-mean.js';

/**
 * The `rxharness` command line. Resolves the exit code: 0 success, 1 an abnormal or failed
 * run, 2 bad usage (with a message on stderr), 130 cancelled with Ctrl+C (143 by SIGTERM,
 * 129 by the SIGHUP of a closed terminal, after which the bin ends by that signal: see
 * `endByHangupAtExit`), 141 stdout closed before the run ended (`| head`: the run is
 * stopped, quietly).
 *
 * @example
 * ```ts
 * process.exitCode = await main(['run', '--demo', 'Survey this project'], processIO());
 * ```
 */
export async function main(argv: readonly string[], io: CliIO): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'run':
        return await runCommand(rest, io);
      case 'agents':
        return await agentsCommand(rest, io);
      case 'serve':
        return await serveCommand(rest, io);
      case 'worker':
        return await workerCommand(rest, io);
      case '--version':
      case '-v':
        return await printed(io, `${version()}\n`);
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        // without a command it is bad usage, so the help goes where errors go
        if (command !== undefined) return await printed(io, MAIN_HELP);
        io.stderr.write(MAIN_HELP);
        return 2;
      default: {
        // `rxharness agent`, `rxharness --verison`: name what was probably meant.
        const meant = closest(command.replace(/^-+/, ''), ['run', 'agents', 'serve', 'worker', 'version', 'help']);
        const hint = meant === undefined ? 'use "run", "agents", "serve" or "worker"' : `did you mean "${meant === 'version' ? '--version' : meant}"?`;
        throw new CliUsageError(`unknown command "${command}"; ${hint} (see rxharness --help)`);
      }
    }
  } catch (e) {
    io.stderr.write(`rxharness: ${shownError(e)}\n`);
    return isUsageError(e) ? 2 : 1;
  }
}

function version(): string {
  return (createRequire(import.meta.url)('../../package.json') as { version: string }).version;
}
