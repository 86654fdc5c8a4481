import { Redis } from 'ioredis';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { checkRedisUrl } from '../../src/cli/redis-url-usage.js';
import { freePort } from '../support/redis-process.js';
import { sandboxPerTest } from './sandbox-per-test.js';

// ioredis reads a word without redis:// as a host name: `--redis notaurl` used to try to
// connect and say Redis cannot be reached "at notaurl", exit 1, as if the server were down. It
// is bad usage naming the forms, before anything connects, and never repeats the URL. The
// forms ioredis does connect with stay accepted: a Unix socket has no redis:// form at all.

const NOT_A_REDIS_URL =
  'is not a Redis URL, socket or HOST:PORT: give it as redis://[USER:PASSWORD@]HOST:PORT, e.g. redis://127.0.0.1:6379 ' +
  '(rediss:// for TLS), or as HOST:PORT, a port, or the absolute path of a Unix socket';

/** What ioredis makes of `url`: where it would connect. */
function reachedAt(url: string): { host?: string; port?: number; path?: string; db?: number } {
  const client = new Redis(url, { lazyConnect: true });
  try {
    const { host, port, path, db } = client.options;
    return path !== undefined && path !== null ? { path } : { host, port: Number(port), db: Number(db) };
  } finally {
    client.disconnect();
  }
}

describe('checkRedisUrl takes every form ioredis connects with', () => {
  it.each([
    ['redis://127.0.0.1:6379', { host: '127.0.0.1', port: 6379, db: 0 }],
    ['REDIS://cache:6380/2', { host: 'cache', port: 6380, db: 2 }],
    ['rediss://:pw@cache.internal:6380', { host: 'cache.internal', port: 6380, db: 0 }],
    ['127.0.0.1:6379', { host: '127.0.0.1', port: 6379, db: 0 }],
    ['cache.internal:6380', { host: 'cache.internal', port: 6380, db: 0 }],
    ['[::1]:6379', { host: '::1', port: 6379, db: 0 }],
    ['6380', { host: 'localhost', port: 6380, db: 0 }],
    ['/var/run/redis/redis.sock', { path: '/var/run/redis/redis.sock' }],
  ])('%s', (url, where) => {
    expect(() => checkRedisUrl(url, '--redis')).not.toThrow();
    expect(reachedAt(url)).toEqual(where);
  });

  it.each(['notaurl', 'cache.internal', 'http://127.0.0.1:6379', 'from-a-vault@cache', 'user:pw@cache:6379', 'cache:', ':6379', 'cache:65536', '0', '65536', '//cache:6379', 'rel/redis.sock', ''])(
    '%j is refused, naming the forms',
    (url) => {
      expect(() => checkRedisUrl(url, '--redis')).toThrow(`--redis ${NOT_A_REDIS_URL}`);
    },
  );
});

describe('a --redis value that is no form Redis is reached at', () => {
  const sandbox = sandboxPerTest();

  it.each([
    [['worker', '--demo', '--redis', 'notaurl']],
    [['worker', '--demo', '--redis', 'http://127.0.0.1:6379']],
    [['serve', '--demo', '--port', '0', '--redis', 'notaurl']],
  ])('%j: exit 2 naming the forms, nothing started', async (argv) => {
    const { code, stderr, stdout } = await sandbox.cli(argv);
    expect(code).toBe(2);
    expect(stderr).toBe(`rxharness: --redis ${NOT_A_REDIS_URL}\n`);
    expect(stderr).not.toContain('cannot reach');
    // No worker banner, no served address.
    expect(stdout).toBe('');
  });

  it('does not repeat the value, which may be a password', async () => {
    const { code, stderr } = await sandbox.cli(['worker', '--demo', '--redis', 'from-a-vault@cache']);
    expect(code).toBe(2);
    expect(stderr).not.toContain('from-a-vault');
  });

  it('takes the scheme in any case: REDIS:// is tried, and only then found unreachable', async () => {
    const port = await freePort();
    const { code, stderr } = await sandbox.cli(['worker', '--demo', '--redis', `REDIS://127.0.0.1:${port}`]);
    expect(code).toBe(1);
    // Shown as the URL parser writes it (shownUrl): the scheme in lower case.
    expect(stderr).toContain(`cannot reach Redis at redis://127.0.0.1:${port}`);
  });

  it('takes HOST:PORT and a socket path: tried, and only then found unreachable', async () => {
    const port = await freePort();
    const hostPort = await sandbox.cli(['worker', '--demo', '--redis', `127.0.0.1:${port}`]);
    expect(hostPort.code).toBe(1);
    expect(hostPort.stderr).toContain(`cannot reach Redis at 127.0.0.1:${port}`);
    const socket = join(tmpdir(), `rxharness-no-such-${port}.sock`);
    const bySocket = await sandbox.cli(['worker', '--demo', '--redis', socket]);
    expect(bySocket.code).toBe(1);
    expect(bySocket.stderr).toContain(`cannot reach Redis at ${socket}`);
  });
});

describe('RXHARNESS_REDIS_URL that is no form Redis is reached at', () => {
  const sandbox = sandboxPerTest();

  it('is named as the source', async () => {
    const { code, stderr } = await sandbox.cli(['worker', '--demo'], { OPENAI_API_KEY: '', RXHARNESS_REDIS_URL: 'cache.internal' });
    expect(code).toBe(2);
    expect(stderr).toBe(`rxharness: RXHARNESS_REDIS_URL ${NOT_A_REDIS_URL}\n`);
  });
});
