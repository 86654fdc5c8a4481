import { basename } from 'node:path';
import type { HarnessEngineOptions } from '../engine/engine-options.js';
import type { AgentDiagnostic } from '../subagent/agent-diagnostic.js';
import { FileSessionStore } from '../session/file-session-store.js';
import type { CliIO } from './cli-io.js';
import { parseFlags } from './parse-flags.js';
import { CliUsageError } from './cli-usage-error.js';
import { ENGINE_FLAGS, engineOptionsFromFlags, MODEL_FLAGS, modelFromFlags, newEngine } from './engine-flags.js';
import { RUN_HELP } from './help-text.js';
import { printed } from './printed.js';
import { presentRun, type PresentedRun } from './present-run.js';
import { runTree } from './run-tree.js';
import { terminalApproval } from '../adapters/terminal-approval.js';
import { markInvisible } from '../text/visible-text.js';
import { APPROVAL_FLAGS, approvalTimeoutOption } from './approval-timeout-flag.js';
import { rawMarkedHead } from './reason-head.js';

const OPTIONS = {
  ...MODEL_FLAGS,
  ...ENGINE_FLAGS,
  session: { type: 'string' },
  'trust-session': { type: 'boolean' },
  yes: { type: 'boolean' },
  ...APPROVAL_FLAGS,
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** How much of a refused definition's reason `run @name` prints once marked (`<U+001B>`); `rxharness agents` prints it whole. */
const SHOWN_REASON_CHARS = 600;

/** `rxharness run`: runs the main agent (or `@name`) and shows it live. Resolves the exit code. */
export async function runCommand(argv: readonly string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseFlags('run', { args: [...argv], options: OPTIONS, allowPositionals: true });
  if (values.help) return printed(io, RUN_HELP);
  let prompt = positionals.join(' ').trim();
  if (!prompt) throw new CliUsageError('run needs a PROMPT, e.g. rxharness run --demo "Survey this project"');
  let agentName: string | undefined;
  const direct = /^@([A-Za-z0-9_-]+)\s+([\s\S]+)$/.exec(prompt);
  if (direct) [, agentName, prompt] = direct as unknown as [string, string, string];
  else if (prompt.startsWith('@')) throw new CliUsageError('"@agent" needs a prompt after it, e.g. @explore "find the tests"');

  const session = values.session;
  if (session?.trim() === '') throw new CliUsageError('--session needs a name, e.g. --session notes');
  const trust = values['trust-session'] ?? false;
  if (trust && session === undefined) throw new CliUsageError('--trust-session goes with --session NAME: it seals the stored conversation NAME');
  const model = modelFromFlags(values, io);
  const flags = engineOptionsFromFlags(values, io);
  const asks = approval(values.yes ?? false, io);
  const engine = newEngine({
    model,
    ...flags,
    // A named conversation goes on across invocations: it is kept in the workspace's files.
    ...(session !== undefined ? { sessions: new FileSessionStore(flags.workspace, { home: flags.homeDir, ...(trust ? { trustUnsealed: [session] } : {}) }) } : {}),
    approve: asks.approve,
    // At a terminal the human is there: no deadline unless asked for.
    ...approvalTimeoutOption(values['approval-timeout'], undefined),
  });
  let shown: PresentedRun | undefined;
  let code: number;
  try {
    warnHidden(engine.agents.diagnostics(), io);
    if (agentName && agentName !== engine.agents.primary()?.name) {
      // A disabled definition (`enabled: false`, the built-in `compaction`) cannot run: bad usage, as an unknown name is.
      const found = engine.agents.get(agentName);
      if (!found?.enabled) {
        const names = engine.agents.list().map((a) => a.name).join(', ');
        const why = found ? `agent "${agentName}" is disabled (enabled: false)` : (notLoaded(engine.agents.diagnostics(), agentName) ?? `unknown agent "${agentName}"`);
        throw new CliUsageError(`${why}; available agents: ${names}`);
      }
    }
    const options = session !== undefined ? { sessionId: session } : {};
    const events$ = agentName ? engine.agent(agentName).stream(prompt, options) : engine.stream(prompt, options);
    shown = presentRun(values.json ? events$ : runTree(events$, io, asks.asksHuman), values.json ?? false, io);
    code = await shown.code;
  } finally {
    await engine.close();
    shown?.stop();
  }
  // The run may have ended before the failure of its last write surfaced: the output is
  // still incomplete, so the output's code wins.
  return shown.outputFailure() ?? code;
}

/**
 * Warns, on stderr, of each of the user's own agents a workspace's file of the same name hides
 * (`AgentDiagnostic.hiddenBy`): the workspace is read first, so a cloned repository's prompt
 * would run under the user's agent's name unseen (`rxharness agents` lists it too). Names and
 * paths marked (`<U+001B>`): a planted file's name is the attacker's text.
 */
function warnHidden(diagnostics: readonly AgentDiagnostic[], io: CliIO): void {
  for (const { agent, file, hiddenBy } of diagnostics) {
    if (hiddenBy === undefined || agent === undefined) continue;
    io.stderr.write(`rxharness: warning: agent "${markInvisible(agent)}" is the workspace's ${markInvisible(hiddenBy)}, not yours (${markInvisible(file)}, ignored); rename one of them to run yours.\n`);
  }
}

/**
 * Why a file defining `name` was not loaded, when a diagnostic says so: the one naming the
 * agent it refused, else the first about a file called `<name>.md` (a file too broken to
 * read its name from). "unknown agent" alone would send the user hunting for a typo.
 */
function notLoaded(diagnostics: readonly AgentDiagnostic[], name: string): string | undefined {
  const about = diagnostics.find((d) => d.agent === name) ?? diagnostics.find((d) => d.agent === undefined && basename(d.file) === `${name}.md`);
  if (about === undefined) return undefined;
  // A reason quotes the file (a YAML error its line, a list its names) and may be very long: the agent's
  // name and the available agents after it must stay on screen. Raw: the CLI marks a usage error as it prints it.
  const head = rawMarkedHead(about.reason, SHOWN_REASON_CHARS);
  const rest = head === about.reason ? 'see `rxharness agents`' : '`rxharness agents` shows the rest';
  return `agent "${name}" was not loaded: ${about.file}: ${head}; ${rest}`;
}

/**
 * `--yes` approves everything; otherwise a terminal asks the human; otherwise asks are
 * rejected, and the user is told once (on stderr) how to let them run. `asksHuman` tells the
 * tree which asks write to the terminal, the only ones it stops its redraws for: every
 * question, the one note, never a `--yes` approval.
 */
function approval(yes: boolean, io: CliIO): Required<Pick<HarnessEngineOptions, 'approve'>> & { readonly asksHuman: () => boolean } {
  if (yes) return { approve: () => ({ decision: 'approve' }), asksHuman: () => false };
  const input = io.stdin;
  if (input?.isTTY === true) return { approve: terminalApproval({ input, output: io.stderr }), asksHuman: () => true };
  let told = false;
  let noted = false; // the tree stops for the first ask only: the note is written once
  return {
    asksHuman: () => {
      const first = !noted;
      noted = true;
      return first;
    },
    approve: (request) => {
      if (!told) {
        told = true;
        // The reason quotes the model's call (a path, a command): marked as the question would show it, no escape left raw.
        const what = `${markInvisible(request.toolName)} (${markInvisible(request.reason)})`;
        io.stderr.write(`rxharness: rejected ${what}: there is no terminal to ask on. Pass --yes to approve every call that asks, or run in a terminal to be asked.\n`);
      }
      return { decision: 'reject', comment: 'nobody can approve it here (no terminal; the user did not pass --yes)' };
    },
  };
}
