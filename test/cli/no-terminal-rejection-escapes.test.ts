import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { sandboxPerTest } from './sandbox-per-test.js';

// Without a terminal to ask on, `run` rejects a call that asks and says so on stderr, which
// may well be a terminal (`rxharness run ... < /dev/null`, a script): the reason it quotes
// holds the model's path or command.

const sandbox = sandboxPerTest();

describe('rxharness run without a terminal: the rejection notice', () => {
  it('shows the escape sequences and bidi controls of the model’s path marked, never raw', async () => {
    const path = '.git/a\u001b]0;owned\u0007b\u001b[2J\u202ec';
    let calls = 0;
    const server = await sandbox.serve({
      handler: () => (calls++ === 0 ? { toolCalls: [{ name: 'write', arguments: { path, content: 'x' } }] } : { text: 'done' }),
    });
    const cli = sandbox.io({ OPENAI_API_KEY: 'k' });
    expect(await main(['run', '--model', 'm', '--base-url', server.baseURL, 'go'], cli)).toBe(0);
    const said = cli.stderrText();
    // The reason quotes the path with every control escaped: the C0 controls as JSON does
    // (\u001b), the bidi control JSON leaves raw too (quoted() escapes it as the wire formats do).
    expect(said).toContain('".git/a\\u001b]0;owned\\u0007b\\u001b[2J\\u202ec"');
    expect(said).toMatch(/^rxharness: rejected write \(.*\): there is no terminal to ask on\./);
    expect(said).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
  });
});
