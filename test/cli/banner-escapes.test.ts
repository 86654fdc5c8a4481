import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { HAS_REDIS, freePort, startRedis, type RedisServer } from '../backend/redis-server.js';
import { sandboxPerTest } from './sandbox-per-test.js';

// What `serve` and `worker` print when they start quotes the user's text: the model's name,
// the workspace's path (a folder of a cloned repository may be named anything), the host, the
// Redis URL and Redis's answers. A terminal obeys an escape sequence in them (retitle the
// window, clear the screen): each is shown marked.

const ESC = '\u001b]0;owned\u0007\u001b[2J\u202e\n';
const MARKED = '<U+001B>]0;owned<U+0007><U+001B>[2J<U+202E><U+000A>';
/** For an error message, whose line breaks the CLI keeps (see shownError). */
const ESC_IN_LINE = ESC.trimEnd();
/** Any control or bidi character left raw, but the line ends the CLI writes. */
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]|[^\n]\n(?!$|\n|Stopping)/;

const sandbox = sandboxPerTest();
let workspace: string;
beforeEach(async () => {
  workspace = join(sandbox.workspace.dir, `ws${ESC}`);
  await mkdir(workspace);
});

const MODEL = ['--model', `gpt${ESC}`, '--base-url', 'http://127.0.0.1:9/v1', '--api-key', 'not-used'];

describe('rxharness serve: its banner', () => {
  it('shows the model and the workspace marked', async () => {
    const cli = sandbox.io();
    const code = main(['serve', ...MODEL, '--port', '0', '--workspace', workspace], cli);
    await cli.waitForStdout('Ctrl+C stops it');
    cli.interrupt();
    expect(await code).toBe(0);
    const said = cli.stdoutText();
    expect(said).toContain(`(model gpt${MARKED}, workspace ${join(sandbox.workspace.dir, `ws${MARKED}`)}; Ctrl+C stops it)\n`);
    expect(said).not.toMatch(RAW);
  });

  it('shows the workspace and the host marked in its warning about other machines', async () => {
    const cli = sandbox.io({ RXHARNESS_TOKEN: 'a-token-of-my-choosing-1' });
    const code = main(['serve', '--demo', '--port', '0', '--host', '0.0.0.0', '--workspace', workspace], cli);
    await cli.waitForStdout('Ctrl+C stops it');
    cli.interrupt();
    expect(await code).toBe(0);
    expect(cli.stderrText()).toContain(`anyone with the token can run commands in ${join(sandbox.workspace.dir, `ws${MARKED}`)}. Send`);
    expect(cli.stderrText()).not.toMatch(RAW);
    expect(cli.stdoutText()).not.toMatch(RAW);
  });

  it('shows an unreachable Redis URL without its query, where the escapes were (shownUrl)', async () => {
    const cli = sandbox.io();
    const port = await freePort();
    expect(await main(['serve', '--demo', '--port', '0', '--redis', `redis://127.0.0.1:${port}/0?x=${ESC_IN_LINE}`], cli)).toBe(1);
    expect(cli.stderrText()).toContain(`cannot reach Redis at redis://127.0.0.1:${port}/0: `);
    expect(cli.stderrText()).not.toMatch(RAW);
  });
});

describe('rxharness worker: its banner', () => {
  it('shows an unreachable Redis URL without its query, where the escapes were (shownUrl)', async () => {
    const cli = sandbox.io();
    const port = await freePort();
    expect(await main(['worker', '--redis', `redis://127.0.0.1:${port}/0?x=${ESC_IN_LINE}`, ...MODEL], cli)).toBe(1);
    expect(cli.stderrText()).toContain(`cannot reach Redis at redis://127.0.0.1:${port}/0: `);
    expect(cli.stderrText()).not.toMatch(RAW);
  });

  describe.skipIf(!HAS_REDIS)('on a real Redis', () => {
    let redis: RedisServer;
    beforeAll(async () => {
      redis = await startRedis();
    });
    afterAll(async () => {
      await redis?.stop();
    });

    it('shows the workspace marked', async () => {
      const cli = sandbox.io();
      const code = main(['worker', '--redis', redis.url, ...MODEL, '--workspace', workspace], cli);
      await cli.waitForStdout('Ctrl+C stops it');
      cli.interrupt();
      expect(await code).toBe(0);
      expect(cli.stdoutText()).toContain(`pulling tasks from ${redis.url} (concurrency 10, workspace ${join(sandbox.workspace.dir, `ws${MARKED}`)}; Ctrl+C stops it)\n`);
      expect(cli.stdoutText()).not.toMatch(RAW);
    });
  });
});
