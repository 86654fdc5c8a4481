/**
 * The preamble of the `--pass-env` tests: a sandbox, environment variables set in this process
 * (the bash tool reads the process's environment) and in the CLI's, and a fake model whose
 * first answer runs a command that prints each of them, then answers "done".
 *
 * @module
 */
import { afterEach, beforeEach, vi } from 'vitest';
import { FakeOpenAIServer, type RecordedRequest } from '../support/fake-openai-server.js';
import { cliSandbox, type CliSandbox } from './cli-sandbox.js';
import type { TestCliIO } from './test-cli-io.js';

/** What {@link envEcho} gives each test. */
export interface EnvEcho {
  readonly sandbox: CliSandbox;
  /** The fake model server. */
  readonly server: FakeOpenAIServer;
  /** A CLI IO whose environment holds the variables. */
  io(): TestCliIO;
}

/**
 * Registers the `beforeEach` that sets `variables` and starts the server, and the `afterEach`
 * that undoes it. The command prints `NAME=value` for each, on a line of its own, `NAME=-`
 * when the command does not get it.
 */
export function envEcho(variables: Readonly<Record<string, string>>): EnvEcho {
  let sandbox: CliSandbox | undefined;
  let server: FakeOpenAIServer | undefined;
  const command = Object.keys(variables)
    .map((name) => `echo "${name}=\${${name}:--}"`)
    .join('; ');
  beforeEach(async () => {
    sandbox = await cliSandbox();
    for (const [name, value] of Object.entries(variables)) vi.stubEnv(name, value);
    server = await FakeOpenAIServer.start({
      handler: (request: RecordedRequest) =>
        request.body.messages!.some((m) => m.role === 'tool') ? { text: 'done' } : { toolCalls: [{ name: 'bash', arguments: { command } }] },
    });
  });
  afterEach(async () => {
    vi.unstubAllEnvs();
    await server?.close();
    await sandbox?.cleanup();
    server = sandbox = undefined;
  });
  return {
    get sandbox() {
      return sandbox!;
    },
    get server() {
      return server!;
    },
    io: () => sandbox!.io({ ...variables }),
  };
}
