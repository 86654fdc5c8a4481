import { describe, expect, it } from 'vitest';
import { sandboxPerTest } from './sandbox-per-test.js';

// An --extra-body nested deeper than JSON.stringify's stack (60,000 lists) parsed, and every
// request of the run then failed with "the response could not be read (Maximum call stack
// size exceeded)": the wrong thing blamed, found only once the run started. Bad usage now.

const sandbox = sandboxPerTest({ handler: () => ({ text: 'ok' }) });

const nested = (depth: number): string => `{"a":${'['.repeat(depth)}${']'.repeat(depth)}}`;

async function run(extraBody: string): Promise<{ code: number; stderr: string }> {
  const { code, cli } = await sandbox.runJson('--extra-body', extraBody, 'hi');
  return { code, stderr: cli.stderrText() };
}

describe('--extra-body nested too deep', () => {
  it('is bad usage naming the flag and the limit, before any request', async () => {
    const { code, stderr } = await run(nested(60_000));
    expect(code).toBe(2);
    expect(stderr).toMatch(/^rxharness: --extra-body is nested more than 64 levels deep/);
    expect(sandbox.server.requests).toHaveLength(0);
  });

  it('a body nested 64 levels deep is sent', async () => {
    const { code } = await run(nested(63)); // the object and 63 lists
    expect(code).toBe(0);
    expect(sandbox.server.requests).toHaveLength(1);
  });
});
