import { lastValueFrom, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { fromRun, startRun } from '../../src/client/index.js';
import { isTaskWrap } from '../../src/events/guards.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { steps } from '../support/delegation-script.js';
import { cliSandbox, type CliSandbox } from './cli-sandbox.js';
import { servedAddress, spawnCli, type CliProcess } from './spawn-cli.js';

let cli: CliProcess | undefined;
let sandbox: CliSandbox | undefined;
let fixture: DelegationFixture | undefined;
afterEach(async () => {
  if (cli && cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill('SIGKILL');
  await sandbox?.cleanup();
  await fixture?.close();
  cli = sandbox = fixture = undefined;
});

describe('rxharness serve (a real process)', () => {
  it('--demo: serves the page and the runs routes; a run over HTTP ends; Ctrl+C exits 0', async () => {
    sandbox = await cliSandbox();
    cli = spawnCli(['serve', '--demo', '--port', '0'], { home: sandbox.home, cwd: sandbox.workspace.dir, env: { RXHARNESS_DEMO_DELAY_MS: '0' } });
    const { url, token } = await servedAddress(cli);
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<ul id="tree"');
    const api = new URL('api', url).href;
    await expect(startRun(api, { prompt: 'Survey this project' })).rejects.toMatchObject({ status: 401 });
    const { runId } = await startRun(api, { prompt: 'Survey this project' }, { token });
    const events = await lastValueFrom(fromRun(api, runId, { token }).pipe(toArray()));
    expect(events.at(-1)!.event).toMatchObject({ type: 'RunEnd', abnormal: false, text: expect.stringMatching(/^Survey complete\./) });
    expect(new Set(events.map((e) => e.event).filter(isTaskWrap).map((e) => e.taskId)).size).toBe(3);
    cli.child.kill('SIGINT');
    const result = await cli.exited;
    expect(result).toMatchObject({ code: 0, signal: null, stderr: '\nStopping: cancelling the runs and closing the server...\n' });
  });

  it('for a real model (--base-url, --model): Ctrl+C cancels the running run (its request aborted, its followers told) and exits 0', async () => {
    fixture = await startDelegationFixture({ main: () => ({ hang: true }) });
    cli = spawnCli(['serve', '--model', 'm', '--base-url', fixture.server.baseURL, '--api-key', 'k', '--port', '0'], { home: fixture.home, cwd: fixture.workspace.dir });
    const { url, token } = await servedAddress(cli);
    expect(cli.stdout()).toContain(`(model m, workspace ${fixture.workspace.dir}; Ctrl+C stops it)`);
    const api = new URL('api', url).href;
    const { runId } = await startRun(api, { prompt: 'hello' }, { token });
    const followed = lastValueFrom(fromRun(api, runId, { token }).pipe(toArray()));
    await fixture.server.waitForRequests(1, 15_000);
    expect(fixture.server.requests[0]!.headers.authorization).toBe('Bearer k');
    cli.child.kill('SIGINT');
    await expect(followed).rejects.toMatchObject({ name: 'AbortError' });
    expect(await cli.exited).toMatchObject({ code: 0, signal: null });
    expect(await fixture.server.waitForClosed(0)).toMatchObject({ aborted: true });
    expect(fixture.server.inFlight).toBe(0);
  });

  it('--yes approves the calls that ask (without it, they wait for the page)', async () => {
    fixture = await startDelegationFixture({ main: steps({ toolCalls: [{ name: 'bash', arguments: { command: 'echo served-yes' } }] }) });
    cli = spawnCli(['serve', '--model', 'm', '--base-url', fixture.server.baseURL, '--port', '0', '--yes'], { home: fixture.home, cwd: fixture.workspace.dir });
    const { url, token } = await servedAddress(cli);
    const api = new URL('api', url).href;
    const { runId } = await startRun(api, { prompt: 'run it' }, { token });
    const events = await lastValueFrom(fromRun(api, runId, { token }).pipe(toArray()));
    expect(events.at(-1)!.event).toMatchObject({ type: 'RunEnd', text: expect.stringContaining('served-yes') });
    cli.child.kill('SIGINT');
    expect((await cli.exited).code).toBe(0);
  });
});
