/**
 * Runs the fake OpenAI server in its own process, for benchmarks:
 *
 * ```sh
 * node --import tsx test/support/serve-fake-openai.ts <scenario-module> [--port N]
 * ```
 *
 * The scenario module default-exports a `FakeHandler`. Once listening, one JSON line
 * `{"baseURL":"http://127.0.0.1:<port>/v1"}` is printed on stdout. The process closes the
 * server and ends on SIGTERM, SIGINT, or when its stdin closes (so a parent that dies takes
 * it along; start it with a piped stdin). Bad usage exits 2 with a message on stderr.
 *
 * @module
 */
import { loadScenarioHandler, parseServeArgs } from './fake-openai/scenario-args.js';
import { FakeOpenAIServer, type FakeHandler } from './fake-openai-server.js';

async function main(): Promise<void> {
  let handler: FakeHandler;
  let port: number;
  try {
    const args = parseServeArgs(process.argv.slice(2));
    port = args.port;
    handler = await loadScenarioHandler(args.modulePath);
  } catch (error) {
    process.stderr.write(`serve-fake-openai: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2; // a usage error: nothing was started, so the process ends by itself
    return;
  }
  const server = await FakeOpenAIServer.start({ handler, port });
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    process.off('SIGTERM', stop).off('SIGINT', stop);
    process.stdin.destroy();
    // No process.exit: the process ends by itself only if nothing was left running.
    void server.close();
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  process.stdin.on('end', stop).on('close', stop).resume();
  process.stdout.write(`${JSON.stringify({ baseURL: server.baseURL })}\n`);
}

await main();
