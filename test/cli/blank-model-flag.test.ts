import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { sandboxPerTest } from './sandbox-per-test.js';

// A model id of spaces names no model: bad usage (2), like any other bad flag value, not a failed run (1).
const sandbox = sandboxPerTest({ handler: () => ({ text: 'done' }) });

describe('a blank model id', () => {
  it('--model " " is bad usage naming the flag, and nothing is sent', async () => {
    const io = sandbox.io({ OPENAI_API_KEY: 'k' });
    const code = await main(['run', '--model', ' ', '--base-url', sandbox.server.baseURL, '--workspace', sandbox.workspace.dir, 'hi'], io);
    expect(code).toBe(2);
    expect(io.stderrText()).toBe('rxharness: --model is blank: name the model, e.g. --model gpt-4o-mini\n');
    expect(sandbox.server.requests).toEqual([]);
  });

  it('RXHARNESS_MODEL=" " is bad usage naming the variable', async () => {
    const io = sandbox.io({ OPENAI_API_KEY: 'k', RXHARNESS_MODEL: '\t ' });
    const code = await main(['run', '--base-url', sandbox.server.baseURL, '--workspace', sandbox.workspace.dir, 'hi'], io);
    expect(code).toBe(2);
    expect(io.stderrText()).toMatch(/^rxharness: RXHARNESS_MODEL is blank/);
  });
});
