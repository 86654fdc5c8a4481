import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { sandboxPerTest } from './sandbox-per-test.js';

// A flag given an empty value (`--host="$HOST"` with HOST unset) meant its default, silently:
// `serve --host=` listened on every interface, `--base-url=` sent the prompt (and the
// workspace it reads) to api.openai.com instead of the local server, `--workspace=` ran in
// the current folder. An empty value is bad usage, named, before anything starts.

const sandbox = sandboxPerTest();

describe('a flag with an empty value', () => {
  it.each([
    [['serve', '--demo', '--port', '0', '--host=', '--token', 'abcdefghijklmnopqrstuvwxyz'], '--host'],
    [['worker', '--redis', 'redis://127.0.0.1:1', '--model', 'm', '--base-url='], '--base-url'],
    [['worker', '--redis', 'redis://127.0.0.1:1', '--model', 'm', '--base-url', 'http://127.0.0.1:1/v1', '--api-key', ''], '--api-key'],
    [['run', '--demo', '--workspace=', 'hi'], '--workspace'],
    [['run', '--demo', '--mcp-config', 'a.json', '--mcp-config=', 'hi'], '--mcp-config'],
    [['run', '--demo', '--pass-env', 'HOME', '--pass-env', '', 'hi'], '--pass-env'],
  ])('%j is bad usage naming the flag, and nothing runs or listens', async (argv, flag) => {
    const io = sandbox.io({ OPENAI_API_KEY: 'k', RXHARNESS_DEMO_DELAY_MS: '0' });
    expect(await main(argv, io)).toBe(2);
    expect(io.stderrText()).toBe(`rxharness: ${flag} needs a value, got an empty one (an unset variable, as in ${flag}="$UNSET"?)\n`);
    expect(io.stdoutText()).toBe('');
  });
});
