/**
 * The preamble of the `--pass-env` tests: a sandbox, environment variables set in this process
 * (the bash tool reads the process's environment) and in the CLI's, and a fake model whose
 * first answer runs a command that prints each of them, then answers "done".
 *
 * @module
 */
import { afterEach, beforeEach, vi } from 'vitest';
import type { FakeOpenAIServer, RecordedRequest } from '../support/fake-openai-server.js';
import { sandboxPerTest, type SandboxPerTest } from './sandbox-per-test.js';
import type { TestCliIO } from './test-cli-io.js';

/** What {@link envEcho} gives each test. */
export interface EnvEcho {
  readonly sandbox: SandboxPerTest;
  /** The fake model server. */
  readonly server: FakeOpenAIServer;
  /** A CLI IO whose environment holds the variables. */
  io(): TestCliIO;
}

/**
 * Registers the hooks that make the sandbox, set `variables` and start the server, and those
 * that undo it. The command prints `NAME=value` for each, on a line of its own, `NAME=-` when
 * the command does not get it.
 */
export function envEcho(variables: Readonly<Record<string, string>>): EnvEcho {
  const command = Object.keys(variables)
    .map((name) => `echo "${name}=\${${name}:--}"`)
    .join('; ');
  const sandbox = sandboxPerTest({
    handler: (request: RecordedRequest) =>
      request.body.messages!.some((m) => m.role === 'tool') ? { text: 'done' } : { toolCalls: [{ name: 'bash', arguments: { command } }] },
  });
  beforeEach(() => {
    for (const [name, value] of Object.entries(variables)) vi.stubEnv(name, value);
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });
  return {
    sandbox,
    get server() {
      return sandbox.server;
    },
    io: () => sandbox.io({ ...variables }),
  };
}
