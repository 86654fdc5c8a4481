import { describe, expect, it } from 'vitest';
import { freePort } from '../support/redis-process.js';
import { cliPerTest } from '../support/cli-per-test.js';

// ioredis reads a word without redis:// as a host name (or a port): `--redis notaurl` used to
// try to connect and say Redis cannot be reached "at notaurl", exit 1, as if the server were down.
// It is bad usage naming the form, before anything connects, and never repeats the URL.

const NOT_A_REDIS_URL = 'is not a Redis URL (it must start with redis://, or rediss:// for TLS): give it as redis://[USER:PASSWORD@]HOST:PORT, e.g. redis://127.0.0.1:6379';

describe('a --redis value without the redis:// scheme', () => {
  const cli = cliPerTest();

  it.each([
    [['worker', '--demo', '--redis', 'notaurl']],
    [['worker', '--demo', '--redis', '127.0.0.1:6379']],
    [['worker', '--demo', '--redis', 'http://127.0.0.1:6379']],
    [['serve', '--demo', '--port', '0', '--redis', 'notaurl']],
  ])('%j: exit 2 naming the form, nothing started', async (argv) => {
    const { code, stderr, stdout } = await cli(...argv);
    expect(code).toBe(2);
    expect(stderr).toBe(`rxharness: --redis ${NOT_A_REDIS_URL}\n`);
    expect(stderr).not.toContain('cannot reach');
    // No worker banner, no served address.
    expect(stdout).toBe('');
  });

  it('does not repeat the value, which may be a password', async () => {
    const { code, stderr } = await cli('worker', '--demo', '--redis', 'from-a-vault@cache');
    expect(code).toBe(2);
    expect(stderr).not.toContain('from-a-vault');
  });

  it('takes the scheme in any case: REDIS:// is tried, and only then found unreachable', async () => {
    const port = await freePort();
    const { code, stderr } = await cli('worker', '--demo', '--redis', `REDIS://127.0.0.1:${port}`);
    expect(code).toBe(1);
    expect(stderr).toContain(`cannot reach Redis at REDIS://127.0.0.1:${port}`);
  });
});

describe('RXHARNESS_REDIS_URL without the scheme', () => {
  const cli = cliPerTest({ OPENAI_API_KEY: '', RXHARNESS_REDIS_URL: 'cache.internal:6379' });

  it('is named as the source', async () => {
    const { code, stderr } = await cli('worker', '--demo');
    expect(code).toBe(2);
    expect(stderr).toBe(`rxharness: RXHARNESS_REDIS_URL ${NOT_A_REDIS_URL}\n`);
  });
});
