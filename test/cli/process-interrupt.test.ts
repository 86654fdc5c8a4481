import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { multitaskReply, steps } from '../support/delegation-script.js';
import { spawnCli, type CliProcess } from './spawn-cli.js';

let fixture: DelegationFixture;
let cli: CliProcess | undefined;
beforeEach(async () => {
  // the main agent hands out two tasks whose model requests never answer
  fixture = await startDelegationFixture({
    main: steps(multitaskReply([[1, 'explore', 'look at a', 'Look at a'], [2, 'explore', 'look at b', 'Look at b']])),
    '*': () => ({ hang: true }),
  });
});
afterEach(async () => {
  if (cli && cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill('SIGKILL');
  cli = undefined;
  await fixture.close();
});

describe('rxharness run: Ctrl+C', () => {
  it('stops every running task (their requests are aborted) and exits 130', async () => {
    cli = spawnCli(['run', '--model', 'm', '--base-url', fixture.server.baseURL, 'survey'], {
      home: fixture.home,
      cwd: fixture.workspace.dir,
      env: { OPENAI_API_KEY: 'x' },
    });
    await fixture.server.waitForRequests(3, 15_000);
    await cli.waitForStdout('[explore#2] task started');
    expect(fixture.server.inFlight).toBe(2);

    cli.child.kill('SIGINT');
    const result = await cli.exited;
    expect(result).toMatchObject({ code: 130, signal: null });
    expect(result.stderr).toBe('\nCancelled.\n');
    expect(result.stdout).not.toContain('final answer');

    const [main, ...children] = await Promise.all([0, 1, 2].map((i) => fixture.server.waitForClosed(i)));
    expect(main).toMatchObject({ completed: true, aborted: false });
    expect(children.map((r) => r.aborted)).toEqual([true, true]);
    expect(fixture.server.requests).toHaveLength(3);
    expect(fixture.server.inFlight).toBe(0);
  });

  it('keeps its SIGINT listener until the run is cleaned up, so a library that re-raises the signal when alone cannot kill it', async () => {
    const reraise = fileURLToPath(new URL('fixtures/reraise-sigint.mjs', import.meta.url));
    cli = spawnCli(['run', '--model', 'm', '--base-url', fixture.server.baseURL, 'survey'], {
      home: fixture.home,
      cwd: fixture.workspace.dir,
      env: { OPENAI_API_KEY: 'x', NODE_OPTIONS: `--import ${pathToFileURL(reraise).href}` },
    });
    await fixture.server.waitForRequests(3, 15_000);
    await cli.waitForStdout('[explore#2] task started');
    cli.child.kill('SIGINT');
    expect(await cli.exited).toMatchObject({ code: 130, signal: null, stderr: '\nCancelled.\n' });
    expect(fixture.server.inFlight).toBe(0);
  });

  it('aborts the main agent’s own request in --json mode too', async () => {
    fixture.route({ main: () => ({ hang: true }) });
    cli = spawnCli(['run', '--json', '--model', 'm', '--base-url', fixture.server.baseURL, 'survey'], {
      home: fixture.home,
      cwd: fixture.workspace.dir,
      env: { OPENAI_API_KEY: 'x' },
    });
    await fixture.server.waitForRequests(1, 15_000);
    await cli.waitForStdout('"ReasonStart"');
    cli.child.kill('SIGINT');
    expect(await cli.exited).toMatchObject({ code: 130, signal: null });
    expect(await fixture.server.waitForClosed(0)).toMatchObject({ aborted: true });
    expect(fixture.server.inFlight).toBe(0);
  });
});
