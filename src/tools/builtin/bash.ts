import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Static } from 'typebox';
import { defineTool } from '../define-tool.js';
import { schemaMemo } from '../schema-memo.js';
import { commandEnvironment } from '../command-environment.js';
import { errnoOf } from '../../errors/errno-of.js';
import { errorMessage } from '../../errors/error-message.js';
import { runCommand, type CommandOutcome } from '../run-command.js';
import { toolError } from '../tool-error.js';
import type { Tool, ToolResult } from '../tool.js';

// A JSON schema literal, typed by TypeBox's `Static` (a type-only import): the TypeBox
// builders would load ~370 modules when the package is imported (test/packaging/import-cost.test.ts).
/** The `bash` tool's arguments for a timeout default and maximum (the model reads both). */
const bashInput = schemaMemo((limits: `${number}/${number}`) => {
  const [defaultTimeoutMs, maxTimeoutMs] = limits.split('/').map(Number);
  return {
    type: 'object',
    required: ['command'],
    properties: {
      command: { type: 'string', minLength: 1, description: 'The command line to run.' },
      timeout_ms: { type: 'integer', minimum: 1, maximum: maxTimeoutMs, description: `Timeout in milliseconds. Default ${defaultTimeoutMs}.` },
    },
    additionalProperties: false,
  } as const;
});

/**
 * Arguments of the `bash` tool: the type its JSON schema gives (TypeBox's `Static`), so
 * the two cannot drift apart.
 *
 * @property command - The command line, run by the shell in the workspace folder.
 * @property timeout_ms - How long the command may run, in milliseconds; default and maximum come from {@link BashToolOptions}.
 */
export interface BashArgs extends Static<ReturnType<typeof bashInput>> {}

/** Limits of the `bash` tool. */
export interface BashToolOptions {
  /** Timeout when the call gives none; default 120,000 ms. */
  readonly defaultTimeoutMs?: number;
  /** The largest `timeout_ms` a call may ask for; default 600,000 ms. */
  readonly maxTimeoutMs?: number;
  /** Time between SIGTERM and SIGKILL when a command is stopped; default 2,000 ms. */
  readonly killGraceMs?: number;
  /** Output characters kept (start and end); default 30,000. */
  readonly maxOutputChars?: number;
  /** The shell; default `/bin/bash` when present, else `/bin/sh`. */
  readonly shell?: string;
  // The function's type is written out, not `CommandEnvironment`: that alias is not part of the package's API.
  /**
   * What each command's environment holds: called with rxharness's environment (a copy,
   * without rxharness's own credentials, which no command gets), it returns the variables the
   * command gets, synchronously. Default: all of them but `OPENAI_API_KEY`, the model
   * server's key, which pays for the model and which few commands need. Keep the key
   * with `(env) => env`; leave more out with `({ OPENAI_API_KEY, GITHUB_TOKEN, ...env }) => env`;
   * pass only some with `(env) => ({ PATH: env.PATH, HOME: env.HOME })`. If it throws, the
   * call fails and nothing runs. See docs/tools.md.
   */
  readonly environment?: (env: Readonly<NodeJS.ProcessEnv>) => NodeJS.ProcessEnv;
}

/**
 * Creates the `bash` tool: runs a shell command in the workspace, in its own process group
 * and session, with a timeout. The result holds the output (start and end kept when long)
 * and the exit code; a non-zero exit, a timeout or a cancellation marks the call failed.
 * Nothing the command started survives it: its process group is killed, and on Linux so is
 * every process carrying its environment tag, even one that left with `setsid` (only a
 * process that also cleared its environment escapes; see `runCommand`).
 *
 * @example
 * ```ts
 * const bash = createBashTool({ defaultTimeoutMs: 30_000 });
 * await bash.execute({ command: 'git status --short' }, context);
 * ```
 */
export function createBashTool(options: BashToolOptions = {}): Tool<BashArgs> {
  const defaultTimeoutMs = options.defaultTimeoutMs ?? 120_000;
  const maxTimeoutMs = options.maxTimeoutMs ?? 600_000;
  return defineTool({
    name: 'bash',
    description:
      'Runs a shell command in the workspace folder and returns its output (stdout and stderr) and ' +
      `exit code. Times out after ${defaultTimeoutMs} ms unless timeout_ms is given (at most ${maxTimeoutMs}). ` +
      'There is no input and no terminal: avoid interactive commands. Processes left in the ' +
      'background are stopped when the command ends.',
    input: bashInput(`${defaultTimeoutMs}/${maxTimeoutMs}`),
    subject: (args) => args.command,
    async execute({ command, timeout_ms: timeoutMs }, context) {
      let env: NodeJS.ProcessEnv;
      try {
        env = commandEnvironment(options.environment);
      } catch (e) {
        return toolError(`Could not start the command: the bash tool's \`environment\` option failed: ${errorMessage(e)}`);
      }
      const outcome = await runCommand({
        command,
        cwd: context.workspace,
        shell: options.shell ?? defaultShell(),
        timeoutMs: Math.min(timeoutMs ?? defaultTimeoutMs, maxTimeoutMs),
        killGraceMs: options.killGraceMs ?? 2_000,
        maxOutputChars: options.maxOutputChars ?? 30_000,
        signal: context.signal,
        env,
      });
      if (outcome.spawnError) return toolError(await spawnErrorMessage(outcome.spawnError, context.workspace));
      return toResult(outcome, Math.min(timeoutMs ?? defaultTimeoutMs, maxTimeoutMs));
    },
  });
}

let shell: string | undefined;

function defaultShell(): string {
  shell ??= existsSync('/bin/bash') ? '/bin/bash' : '/bin/sh';
  return shell;
}

/**
 * Why the command did not start. Node reports a missing working folder as the shell's own
 * ENOENT (`spawn /bin/bash ENOENT`), which blames the shell; so when the workspace folder is
 * gone (removed during the run) or no longer a folder, the message says so.
 */
async function spawnErrorMessage(error: Error, cwd: string): Promise<string> {
  const code = errnoOf(error);
  const folderGone = (code === 'ENOENT' || code === 'ENOTDIR') && !(await stat(cwd).then((s) => s.isDirectory(), () => false));
  const why = folderGone ? `the workspace folder ${cwd} no longer exists (or is not a folder): ` : '';
  return `Could not start the command: ${why}${error.message}`;
}

function toResult(outcome: CommandOutcome, timeoutMs: number): ToolResult {
  const body = outcome.output === '' ? '(no output)' : outcome.output.replace(/\n$/, '');
  const notes: string[] = [];
  if (outcome.stoppedLeftovers) notes.push('[background processes the command left running were stopped]');
  let error: string | undefined;
  if (outcome.timedOut) {
    error = `Command timed out after ${timeoutMs} ms`;
    notes.push(`[timed out after ${timeoutMs} ms; the command and its child processes were killed]`);
  } else if (outcome.aborted) {
    error = 'Command was cancelled';
    notes.push('[cancelled; the command and its child processes were killed]');
  } else if (outcome.exitCode === null) {
    error = `Command was killed by ${outcome.exitSignal ?? 'a signal'}`;
    notes.push(`[killed by ${outcome.exitSignal ?? 'a signal'}]`);
  } else {
    if (outcome.exitCode !== 0) error = `Command exited with code ${outcome.exitCode}`;
    notes.push(`[exit code: ${outcome.exitCode}]`);
  }
  const text = `${body}\n${notes.join('\n')}`;
  return error === undefined ? { text } : { text, error };
}
