/**
 * rxharness's own credentials that it reads from the environment: serve's bearer token
 * (`RXHARNESS_TOKEN`), the remote agents' bearer token (`RXHARNESS_A2A_TOKEN`, named in
 * src/delegation/a2a/remote-credentials.ts, a layer above the tools) and the worker's Redis
 * URL (`RXHARNESS_REDIS_URL`, which may hold a password). Commands the model writes never need
 * them, and a prompt injection that runs `env` would read them: no command gets them,
 * whatever a {@link CommandEnvironment} returns.
 */
export const HARNESS_CREDENTIAL_VARIABLES: readonly string[] = Object.freeze([
  'RXHARNESS_TOKEN',
  'RXHARNESS_A2A_TOKEN',
  'RXHARNESS_REDIS_URL',
]);

/**
 * Chooses what a command's environment holds: called with rxharness's environment (a copy,
 * without {@link HARNESS_CREDENTIAL_VARIABLES}) before each command, it returns the
 * variables the command gets, synchronously.
 *
 * @example
 * ```ts
 * const keepAll: CommandEnvironment = (env) => env;
 * const only: CommandEnvironment = (env) => ({ PATH: env.PATH, HOME: env.HOME });
 * const without: CommandEnvironment = ({ OPENAI_API_KEY, AWS_SECRET_ACCESS_KEY, ...env }) => env;
 * ```
 */
export type CommandEnvironment = (env: Readonly<NodeJS.ProcessEnv>) => NodeJS.ProcessEnv;

/**
 * The default {@link CommandEnvironment}: everything but `OPENAI_API_KEY`, the model server's
 * key rxharness reads (src/model/openai-chat-model.ts, a layer above the tools). It pays for
 * the model and a prompt-injected `env` would show it; the user's other variables pass, since
 * their build and test commands may need them.
 */
export const withoutModelKey: CommandEnvironment = (env) => {
  const chosen = { ...env };
  delete chosen.OPENAI_API_KEY;
  return chosen;
};

/**
 * The environment a command the tools start gets: what `choose` makes of `base` (the
 * process's own, by default) without rxharness's credentials, and never those credentials.
 * `CDPATH`, `BASHOPTS` and exported shell functions (`BASH_FUNC_*`) are dropped too, whatever
 * `choose` returns (see the write rules' reading of `cd`).
 * A `choose` that throws throws here; one that returns no object of variables (a promise,
 * undefined) is a `TypeError` ("it must return an object of variables ...").
 *
 * @example
 * ```ts
 * commandEnvironment(withoutModelKey, { PATH: '/bin', RXHARNESS_TOKEN: 't', OPENAI_API_KEY: 'k' }); // { PATH: '/bin' }
 * ```
 */
export function commandEnvironment(choose: CommandEnvironment = withoutModelKey, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const chosen: unknown = choose(withoutCredentials(base));
  if (typeof chosen !== 'object' || chosen === null || typeof (chosen as { then?: unknown }).then === 'function') {
    throw new TypeError(`it must return an object of variables, synchronously; got ${kindOf(chosen)}`);
  }
  // Whatever it returned (say, a spread of process.env), rxharness's credentials stay out.
  const env = withoutCredentials(chosen as NodeJS.ProcessEnv);
  for (const name of FOLDER_SEARCH_VARIABLES) delete env[name];
  for (const name of Object.keys(env)) if (name.startsWith(EXPORTED_FUNCTION_PREFIX)) delete env[name];
  return env;
}

/**
 * Variables that let bash's `cd x` enter a folder other than `./x` (`CDPATH`; `BASHOPTS` may turn
 * on `cdable_vars`): the bash write rules read a plain `cd frontend` as entering `./frontend`
 * (docs/permissions.md), so no command inherits them. A line may still set them; it is then read
 * as entering any folder.
 */
const FOLDER_SEARCH_VARIABLES: readonly string[] = ['CDPATH', 'BASHOPTS'];

/**
 * How bash names a function exported to its children (`BASH_FUNC_cd%%`, its body the value):
 * each bash a command starts defines it. A function named `cd`, `echo` or `rm` would run in
 * place of what the bash rules read (a `cd frontend` that enters `.git/hooks`), so none passes.
 */
const EXPORTED_FUNCTION_PREFIX = 'BASH_FUNC_';

/** A copy of `env` without {@link HARNESS_CREDENTIAL_VARIABLES}. */
function withoutCredentials(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const copy: NodeJS.ProcessEnv = { ...env };
  for (const name of HARNESS_CREDENTIAL_VARIABLES) delete copy[name];
  return copy;
}

/** How a wrong answer of `environment` is named in the message. */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  return typeof value === 'object' ? 'a promise' : typeof value;
}
