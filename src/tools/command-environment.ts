/**
 * rxharness's own credentials that it reads from the environment: serve's bearer token
 * (`RXHARNESS_TOKEN`), the remote agents' bearer token (`RXHARNESS_A2A_TOKEN`, named in
 * src/delegation/a2a/remote-credentials.ts, a layer above the tools) and the worker's Redis
 * URL (`RXHARNESS_REDIS_URL`, which may hold a password). Commands the model writes never need
 * them, and a prompt injection that runs `env` would read them.
 */
export const HARNESS_CREDENTIAL_VARIABLES: readonly string[] = Object.freeze([
  'RXHARNESS_TOKEN',
  'RXHARNESS_A2A_TOKEN',
  'RXHARNESS_REDIS_URL',
]);

/**
 * The environment a command the tools start gets: `base` (the process's own, by default)
 * without rxharness's credentials ({@link HARNESS_CREDENTIAL_VARIABLES}). Every other
 * variable passes, the user's own keys (`OPENAI_API_KEY`...) included, since the user's
 * tools may need them.
 *
 * @example
 * ```ts
 * commandEnvironment({ PATH: '/bin', RXHARNESS_TOKEN: 't' }); // { PATH: '/bin' }
 * ```
 */
export function commandEnvironment(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base };
  for (const name of HARNESS_CREDENTIAL_VARIABLES) delete env[name];
  return env;
}
