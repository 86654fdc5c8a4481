import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { sandboxPerTest } from './sandbox-per-test.js';

// `rxharness agents` builds its engine without model flags, so a workspace definition's
// `context_window` is always reported as ignored there, although a run with a large enough
// --context-window uses it. Its help must say so, or the warning reads as a broken definition.
const sandbox = sandboxPerTest();

describe('rxharness agents --help', () => {
  it('says agents takes no model flags, so a context_window shows as ignored', async () => {
    const cli = sandbox.io();
    expect(await main(['agents', '--help'], cli)).toBe(0);
    const help = cli.stdoutText().replaceAll(/\s+/g, ' ');
    expect(help).toContain('agents takes no model flags (--model, --max-tokens, --context-window, --extra-body)');
    expect(help).toContain("such a definition's context_window always shows as ignored here");
  });
});
