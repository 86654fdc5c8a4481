import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { shownError } from '../../src/cli/shown-error.js';
import { sandboxPerTest } from './sandbox-per-test.js';

// Every error the CLI prints quotes what it was given (a command, a flag, its value, a path,
// a host): text from a script or a file name can hold escape sequences, which stderr (a
// terminal) would obey: retitle the window, clear the screen, hide the message. Shown marked.

const sandbox = sandboxPerTest();

const ESC = '\u001b]0;owned\u0007\u001b[2J\u202e';
const MARKED = '<U+001B>]0;owned<U+0007><U+001B>[2J<U+202E>';

describe('CLI errors that quote hostile text', () => {
  it.each([
    [[ESC], 'unknown command'],
    [['run', '--demo', `--x${ESC}`, 'hi'], 'unknown option'],
    [['run', '--demo', `--max-steps=${ESC}`, 'hi'], '--max-steps must be'],
    [['run', '--demo', `--mcp-config=${ESC}.json`, 'hi'], '--mcp-config'],
    [['run', '--demo', `--workspace=${ESC}`, 'hi'], 'workspace'],
    [['serve', '--demo', `--port=${ESC}`], '--port must be'],
  ])('%j: exit 2, the text shown marked, nothing raw', async (argv, says) => {
    const io = sandbox.io({ OPENAI_API_KEY: '', RXHARNESS_DEMO_DELAY_MS: '0' });
    expect(await main(argv, io)).toBe(2);
    const said = io.stderrText();
    expect(said).toContain(says);
    expect(said).toContain(MARKED);
    expect(said).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
  });

  // A usage error is one line: a line break in it came from the value it quotes, and printed
  // raw it would forge a line of its own (a fake "rxharness:" verdict, a prompt to paste).
  it.each([
    [['run', '--demo', '--max-steps=3\nrxharness: all good, exit 0', 'hi'], 'rxharness: --max-steps must be a whole number >= 1, got "3<U+000A>rxharness: all good, exit 0"\n'],
    [['agents', 'a\nrxharness: ok'], "rxharness: Unexpected argument 'a<U+000A>rxharness: ok'. This command does not take positional arguments\n"],
    [['run', '--demo', '--workspace=a\r\nb', 'hi'], 'a<U+000D><U+000A>b'],
  ])('%j: a line break in the quoted value is marked, the error stays one line', async (argv, says) => {
    const io = sandbox.io({ OPENAI_API_KEY: '', RXHARNESS_DEMO_DELAY_MS: '0' });
    expect(await main(argv, io)).toBe(2);
    const said = io.stderrText();
    expect(said).toContain(says);
    expect(said.split('\n')).toEqual([expect.stringMatching(/^rxharness: /), '']);
  });

  it('keeps the line breaks of an error that is not about usage (a server\'s answer of several lines)', () => {
    expect(shownError(new Error('the server said:\nline two\u001b[2J'))).toBe('the server said:\nline two<U+001B>[2J');
  });
});
