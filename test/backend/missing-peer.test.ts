import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { EMPTY_HOME } from '../support/empty-home.js';

const run = promisify(execFile);
const here = (file: string): string => fileURLToPath(new URL(file, import.meta.url));

describe('without the optional peers ioredis and bullmq', () => {
  it('the package loads and runs embedded; redisBackend names the peer to install', async () => {
    const { stdout } = await run(process.execPath, ['--import', here('./block-peers.mjs'), '--import', 'tsx', here('./missing-peer-script.ts')], {
      timeout: 30_000,
      // The script's engine reads no one's ~/.rxharness.
      env: { ...process.env, HOME: EMPTY_HOME },
    });
    expect(stdout).toContain('embedded: fine');
    expect(stdout).toContain('RedisBackendError REDIS_BACKEND: the Redis backend needs the optional peer dependency "bullmq"');
    expect(stdout).toContain('npm install ioredis bullmq');
  });
});
