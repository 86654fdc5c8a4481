/**
 * The CLI whose output's reader is gone before it writes (`rxharness --help | true`, a
 * closed stderr): each write then fails with EPIPE, an `'error'` event that Node throws when
 * nobody listens. The command must end with its own exit code, quietly: 141 when its output
 * could not be written, as `run` and `agents` end under `| head -1`; a usage error's 2 when
 * only the message on stderr was lost. Run from the sources, as a real process.
 */
import { describe, expect, it } from 'vitest';
import { sandboxPerTest } from './sandbox-per-test.js';
import { spawnSourceCli, type CliResult } from './spawn-cli.js';

const sandbox = sandboxPerTest();

/** Runs the CLI with the read end of `closed` shut before the process can write to it. */
function withClosed(closed: 'stdout' | 'stderr', args: readonly string[]): Promise<CliResult> {
  const cli = spawnSourceCli(args, { cwd: sandbox.workspace.dir, home: sandbox.home });
  cli.child[closed]!.destroy();
  return cli.exited;
}

describe('rxharness with a closed output', () => {
  for (const args of [['--version'], ['--help'], ['run', '--help'], ['agents', '--help']]) {
    it(`${args.join(' ')} with stdout closed: exits 141 without a stack trace`, async () => {
      const result = await withClosed('stdout', args);
      expect(result.stderr).toBe('');
      expect(result).toMatchObject({ code: 141, signal: null });
    }, 60_000);
  }

  it('a usage error with stderr closed: still exits 2, not 1 from an uncaught write error', async () => {
    const result = await withClosed('stderr', ['run', '--no-such-flag', 'hi']);
    expect(result).toMatchObject({ code: 2, signal: null, stdout: '' });
  }, 60_000);
});
