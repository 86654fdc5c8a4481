import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { sandboxPerTest } from './sandbox-per-test.js';

const sandbox = sandboxPerTest();

/** A write error as Node reports it for a file descriptor. */
function writeError(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code, syscall: 'write' });
}

describe('rxharness run when stdout fails', () => {
  it('a full disk: stops the run, says why on stderr, resolves 1 and releases its listeners', async () => {
    const cli = sandbox.io({ RXHARNESS_DEMO_DELAY_MS: '20' });
    const listenersBefore = cli.stdout.listenerCount('error');
    const exit = main(['run', '--json', '--demo', 'Survey this project'], cli);
    await cli.waitForStdout('"RunStart"');
    cli.stdout.emit('error', writeError('ENOSPC', 'ENOSPC: no space left on device, write'));
    expect(await exit).toBe(1);
    expect(cli.stderrText()).toBe('rxharness: cannot write the output: ENOSPC: no space left on device, write\n');
    expect(cli.stdoutText()).not.toContain('"RunEnd"');
    expect(cli.stdout.listenerCount('error')).toBe(listenersBefore);
    expect(cli.interruptListeners()).toBe(0);
  });

  it('EPIPE: stops the run quietly and resolves 141, in the tree mode too', async () => {
    const cli = sandbox.io({ RXHARNESS_DEMO_DELAY_MS: '20' });
    const exit = main(['run', '--demo', 'Survey this project'], cli);
    await cli.waitForStdout('task started');
    cli.stdout.emit('error', writeError('EPIPE', 'write EPIPE'));
    expect(await exit).toBe(141);
    expect(cli.stderrText()).toBe('');
    expect(cli.stdoutText()).not.toContain('[main] run done');
  });

  it('a stream that fails with null or a bare string: stops the run with 1 and says what it got, nothing thrown', async () => {
    // A caller's own stdout (CliIO is public) may emit anything as its error; reading `.code`
    // off `null` used to throw a TypeError out of the listener into the stream's emit.
    for (const [thrown, said] of [[null, 'null'], ['the pipe went away', 'the pipe went away']] as const) {
      const cli = sandbox.io({ RXHARNESS_DEMO_DELAY_MS: '20' });
      const exit = main(['run', '--json', '--demo', 'Survey this project'], cli);
      await cli.waitForStdout('"RunStart"');
      expect(() => cli.stdout.emit('error', thrown)).not.toThrow();
      expect(await exit).toBe(1);
      expect(cli.stderrText()).toBe(`rxharness: cannot write the output: ${said}\n`);
      expect(cli.stdoutText()).not.toContain('"RunEnd"');
    }
  });
});
