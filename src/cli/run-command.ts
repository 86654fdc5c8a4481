import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { liveTree } from '../adapters/terminal-tree/index.js';
import { createDemoModel } from '../demo/demo-model.js';
import { HarnessEngine } from '../engine/harness-engine.js';
import type { HarnessEngineOptions } from '../engine/engine-options.js';
import type { ChatModel } from '../model/chat-model.js';
import { OpenAIChatModel } from '../model/openai-chat-model.js';
import { FileSessionStore } from '../session/file-session-store.js';
import type { CliIO } from './cli-io.js';
import { CliUsageError } from './cli-usage-error.js';
import { RUN_HELP } from './help-text.js';
import { integerFlag } from './integer-flag.js';
import { presentRun, type PresentedRun } from './present-run.js';
import { terminalApproval } from './terminal-approval.js';
import { errorMessage } from '../errors/error-message.js';

const OPTIONS = {
  demo: { type: 'boolean' },
  model: { type: 'string' },
  'base-url': { type: 'string' },
  'api-key': { type: 'string' },
  workspace: { type: 'string' },
  'max-tasks': { type: 'string' },
  'max-steps': { type: 'string' },
  'max-depth': { type: 'string' },
  'agent-dir': { type: 'string', multiple: true },
  session: { type: 'string' },
  yes: { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** `rxharness run`: runs the main agent (or `@name`) and shows it live. Resolves the exit code. */
export async function runCommand(argv: readonly string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true });
  if (values.help) {
    io.stdout.write(RUN_HELP);
    return 0;
  }
  let prompt = positionals.join(' ').trim();
  if (!prompt) throw new CliUsageError('run needs a PROMPT, e.g. rxharness run --demo "Survey this project"');
  let agentName: string | undefined;
  const direct = /^@([A-Za-z0-9_-]+)\s+([\s\S]+)$/.exec(prompt);
  if (direct) [, agentName, prompt] = direct as unknown as [string, string, string];
  else if (prompt.startsWith('@')) throw new CliUsageError('"@agent" needs a prompt after it, e.g. @explore "find the tests"');

  const workspace = resolve(io.cwd, values.workspace ?? '.');
  const session = values.session;
  if (session?.trim() === '') throw new CliUsageError('--session needs a name, e.g. --session notes');
  const engine = newEngine({
    model: values.demo ? createDemoModel(demoSpeed(io)) : openaiModel(values.model, values['base-url'], values['api-key'], io),
    workspace,
    // the CLI's environment decides whose ~/.rxharness/agents is read, as in `agents`
    ...(io.env.HOME ? { homeDir: io.env.HOME } : {}),
    ...(values['max-tasks'] !== undefined ? { multitaskMaxTasks: integerFlag('--max-tasks', values['max-tasks'], 0) } : {}),
    ...(values['max-steps'] !== undefined ? { maxSteps: integerFlag('--max-steps', values['max-steps'], 1) } : {}),
    ...(values['max-depth'] !== undefined ? { maxDepth: integerFlag('--max-depth', values['max-depth'], 0) } : {}),
    ...(values['agent-dir'] ? { agentDirs: values['agent-dir'] } : {}),
    // A named conversation goes on across invocations: it is kept in the workspace's files.
    ...(session !== undefined ? { sessions: new FileSessionStore(workspace) } : {}),
    ...approval(values.yes ?? false, io),
  });
  let shown: PresentedRun | undefined;
  let code: number;
  try {
    if (agentName && !engine.agents.get(agentName) && agentName !== engine.agents.primary()?.name) {
      const names = engine.agents.list().map((a) => a.name).join(', ');
      throw new CliUsageError(`unknown agent "${agentName}"; available agents: ${names}`);
    }
    const options = session !== undefined ? { sessionId: session } : {};
    const events$ = agentName ? engine.agent(agentName).stream(prompt, options) : engine.stream(prompt, options);
    const shown$ = values.json ? events$ : events$.pipe(liveTree({ output: io.stdout }));
    shown = presentRun(shown$, values.json ?? false, io);
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
 * `--yes` approves everything; otherwise a terminal asks the human; otherwise asks are
 * rejected, and the user is told once (on stderr) how to let them run.
 */
function approval(yes: boolean, io: CliIO): Pick<HarnessEngineOptions, 'approve'> {
  if (yes) return { approve: () => ({ decision: 'approve' }) };
  const input = io.stdin;
  if (input?.isTTY === true) return { approve: terminalApproval({ input, output: io.stderr }) };
  let told = false;
  return {
    approve: (request) => {
      if (!told) {
        told = true;
        io.stderr.write(`rxharness: rejected ${request.toolName} (${request.reason}): there is no terminal to ask on. Pass --yes to approve every call that asks, or run in a terminal to be asked.\n`);
      }
      return { decision: 'reject', comment: 'nobody can approve it here (no terminal; the user did not pass --yes)' };
    },
  };
}

export function openaiModel(model: string | undefined, baseURLFlag: string | undefined, apiKeyFlag: string | undefined, io: CliIO): ChatModel {
  const id = model ?? io.env.RXHARNESS_MODEL;
  if (!id) throw new CliUsageError('no model: pass --model M or set RXHARNESS_MODEL (or use --demo to run offline)');
  const baseURL = baseURLFlag ?? io.env.OPENAI_BASE_URL;
  const apiKey = apiKeyFlag ?? io.env.OPENAI_API_KEY;
  // A local server (a base URL) needs no key; OpenAI's own API does.
  if (!apiKey && !baseURL) throw new CliUsageError('no API key: pass --api-key K or set OPENAI_API_KEY (a local server needs none: pass --base-url), or use --demo');
  return new OpenAIChatModel({ model: id, ...(baseURL ? { baseURL } : {}), ...(apiKey ? { apiKey } : {}) });
}

/** `RXHARNESS_DEMO_DELAY_MS` slows or speeds the demo's streaming (tests set it to 0). */
export function demoSpeed(io: CliIO): { chunkDelayMs?: number } {
  const raw = io.env.RXHARNESS_DEMO_DELAY_MS;
  return raw === undefined ? {} : { chunkDelayMs: integerFlag('RXHARNESS_DEMO_DELAY_MS', raw, 0) };
}

/** Engine options come from flags here, so an invalid one is bad usage. */
function newEngine(options: HarnessEngineOptions): HarnessEngine {
  try {
    return new HarnessEngine(options);
  } catch (e) {
    throw new CliUsageError(errorMessage(e));
  }
}
