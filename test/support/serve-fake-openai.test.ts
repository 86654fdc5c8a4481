import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import { afterAll, describe, expect, it } from 'vitest';
import { loadScenarioHandler, parseServeArgs, SERVE_USAGE } from './fake-openai/scenario-args.js';
import { ServeUsageError } from './fake-openai/serve-usage-error.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const started: ChildProcessWithoutNullStreams[] = [];

function serve(...args: string[]): ChildProcessWithoutNullStreams {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/serve-fake-openai.ts', ...args], { cwd: ROOT });
  started.push(child);
  return child;
}

async function firstLine(child: ChildProcessWithoutNullStreams): Promise<string> {
  const lines = createInterface({ input: child.stdout });
  const [line] = (await once(lines, 'line')) as [string];
  lines.close();
  return line;
}

async function exitCode(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  const [code] = (await once(child, 'exit')) as [number | null];
  return code;
}

// afterAll, not afterEach: the tests run concurrently and share this list.
afterAll(() => {
  for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

describe.concurrent('serve-fake-openai (a server in its own process)', () => {
  it('prints its baseURL, answers with the scenario handler, and exits 0 on SIGTERM', async () => {
    const child = serve('test/support/fixtures/echo-scenario.ts');
    const { baseURL } = JSON.parse(await firstLine(child)) as { baseURL: string };
    expect(baseURL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const client = new OpenAI({ baseURL, apiKey: 'test', maxRetries: 0 });
    const completion = await client.chat.completions.create({ model: 'bench-model', messages: [{ role: 'user', content: 'hi' }] });
    expect(completion.choices[0]?.message.content).toBe('scenario reply #0 for bench-model');
    child.kill('SIGTERM');
    expect(await exitCode(child)).toBe(0);
  });

  it('exits 0 by itself when its stdin closes', async () => {
    const child = serve('test/support/fixtures/echo-scenario.ts');
    await firstLine(child);
    child.stdin.end();
    expect(await exitCode(child)).toBe(0);
  });
});

describe('serve-fake-openai arguments', () => {
  it('reads the scenario module and an optional port', () => {
    expect(parseServeArgs(['scenario.ts'])).toEqual({ modulePath: 'scenario.ts', port: 0 });
    expect(parseServeArgs(['--port', '8123', 'scenario.ts'])).toEqual({ modulePath: 'scenario.ts', port: 8123 });
  });

  it('rejects a missing module or a bad port with the usage line', () => {
    expect(() => parseServeArgs([])).toThrow(new ServeUsageError(`expected exactly one scenario module\n${SERVE_USAGE}`));
    expect(() => parseServeArgs(['a.ts', 'b.ts'])).toThrow(ServeUsageError);
    expect(() => parseServeArgs(['a.ts', '--port', 'http'])).toThrow('--port needs a port number from 0 to 65535');
  });

  it('loads the default-exported handler of a scenario module', async () => {
    const handler = await loadScenarioHandler('test/support/fixtures/echo-scenario.ts');
    expect(typeof handler).toBe('function');
  });

  it('refuses a module without a handler, or one that cannot be loaded, saying why', async () => {
    await expect(loadScenarioHandler('test/support/fixtures/not-a-handler-scenario.ts')).rejects.toThrow(
      'must default-export a FakeHandler function',
    );
    await expect(loadScenarioHandler('test/support/fixtures/missing.ts')).rejects.toThrow(
      /cannot load scenario module test\/support\/fixtures\/missing\.ts/,
    );
  });
});
