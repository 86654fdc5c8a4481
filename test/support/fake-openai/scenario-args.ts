import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ServeUsageError } from './serve-usage-error.js';
import type { FakeHandler } from './types.js';

/** The command line of `serve-fake-openai`. */
export const SERVE_USAGE = 'usage: node --import tsx test/support/serve-fake-openai.ts <scenario-module> [--port N]';

/** What `serve-fake-openai` was asked to run. */
export interface ServeArgs {
  readonly modulePath: string;
  readonly port: number;
}

/**
 * Reads `<scenario-module> [--port N]`.
 *
 * @throws ServeUsageError with the usage line on anything else.
 * @example
 * ```ts
 * parseServeArgs(['bench/scenario.ts', '--port', '8080']); // { modulePath: 'bench/scenario.ts', port: 8080 }
 * ```
 */
export function parseServeArgs(args: readonly string[]): ServeArgs {
  const rest = [...args];
  let port = 0;
  const portAt = rest.indexOf('--port');
  if (portAt >= 0) {
    const value = Number(rest[portAt + 1]);
    if (!Number.isInteger(value) || value < 0 || value > 65_535) {
      throw new ServeUsageError(`--port needs a port number from 0 to 65535\n${SERVE_USAGE}`);
    }
    port = value;
    rest.splice(portAt, 2);
  }
  if (rest.length !== 1) throw new ServeUsageError(`expected exactly one scenario module\n${SERVE_USAGE}`);
  return { modulePath: rest[0] as string, port };
}

/**
 * Imports a scenario module (a path relative to the working directory) and returns its
 * default export, which must be a `FakeHandler`.
 *
 * @throws ServeUsageError when the module cannot be loaded or exports no function.
 * @example
 * ```ts
 * const handler = await loadScenarioHandler('bench/scenarios/echo.ts');
 * ```
 */
export async function loadScenarioHandler(modulePath: string): Promise<FakeHandler> {
  let scenario: { default?: unknown };
  try {
    scenario = (await import(pathToFileURL(resolve(modulePath)).href)) as { default?: unknown };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ServeUsageError(`cannot load scenario module ${modulePath}: ${reason}`);
  }
  if (typeof scenario.default !== 'function') {
    throw new ServeUsageError(
      `scenario module ${modulePath} must default-export a FakeHandler function (request => FakeReply)`,
    );
  }
  return scenario.default as FakeHandler;
}
