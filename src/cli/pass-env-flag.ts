import type { HarnessEngineOptions } from '../engine/engine-options.js';
import { HARNESS_CREDENTIAL_VARIABLES, withoutModelKey } from '../tools/command-environment.js';
import { createBashTool } from '../tools/builtin/bash.js';
import type { CliIO } from './cli-io.js';
import { CliUsageError } from './cli-usage-error.js';
import { shownText } from './shown-error.js';

/** `--pass-env NAME` (repeatable) of the commands that build an engine. */
export const PASS_ENV_FLAGS = {
  'pass-env': { type: 'string', multiple: true },
} as const;

/** What a shell accepts as a variable's name (POSIX): letters, digits and `_`, no digit first. */
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The engine's `tools` for `--pass-env NAME...`: a `bash` tool (replacing the built-in one)
 * whose commands get these variables of rxharness's environment on top of what they get by
 * default (everything but `OPENAI_API_KEY`), for a script the user runs on purpose that needs
 * one. Nothing when no name is given: the built-in bash stays. A name no shell could hold
 * (`FOO=bar`, `1X`, empty) is bad usage naming it, as is one of rxharness's own credentials,
 * which no command ever gets (see `HARNESS_CREDENTIAL_VARIABLES`): passing it would do
 * nothing, silently. A name that is not set is said on stderr: likely a misspelling.
 *
 * @example
 * ```ts
 * passEnvOption(['OPENAI_API_KEY'], io); // { tools: [a bash tool whose commands see $OPENAI_API_KEY] }
 * ```
 */
export function passEnvOption(names: readonly string[] | undefined, io: CliIO): Pick<HarnessEngineOptions, 'tools'> {
  if (names === undefined || names.length === 0) return {};
  for (const name of names) {
    if (!VARIABLE_NAME.test(name)) {
      throw new CliUsageError(`--pass-env ${JSON.stringify(name)} is not a variable name (letters, digits and _, not starting with a digit); pass one name per flag, e.g. --pass-env OPENAI_API_KEY`);
    }
    if (HARNESS_CREDENTIAL_VARIABLES.includes(name)) {
      throw new CliUsageError(`--pass-env ${name}: rxharness's own credentials (${HARNESS_CREDENTIAL_VARIABLES.join(', ')}) never reach the model's commands; pass the command a credential of its own instead`);
    }
  }
  const unset = names.filter((name) => io.env[name] === undefined);
  // Cut as an error is (a name can be a megabyte long): a warning must not flood the terminal either.
  if (unset.length > 0) io.stderr.write(`rxharness: ${shownText(`--pass-env ${unset.join(', ')}: not set here, so the commands do not get ${unset.length === 1 ? 'it' : 'them'}`)}\n`);
  const passed = [...new Set(names)];
  return {
    tools: [
      createBashTool({
        // Read at each command, as the default does: the variables' values when it starts.
        environment: (env) => {
          const chosen = withoutModelKey(env);
          for (const name of passed) if (env[name] !== undefined) chosen[name] = env[name];
          return chosen;
        },
      }),
    ],
  };
}
