import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { shownUrl } from '../../src/text/shown-url.js';
import { freePort } from '../backend/redis-server.js';
import { sandboxPerTest } from './sandbox-per-test.js';

// The worker prints its Redis URL (its banner, or why Redis cannot be reached) where logs
// keep it: no part of a password may show. It is shown as every URL in a message is
// (shownUrl: scheme, host and path; no credentials, query or fragment).

const sandbox = sandboxPerTest();

describe('rxharness worker: the Redis URL it prints', () => {
  it('shows no part of a password holding "@", nor the query (a password parameter)', async () => {
    const port = await freePort();
    const cli = sandbox.io();
    const url = `redis://app:s3cr@t-tail@127.0.0.1:${port}/0?password=hunter2-q&db=0`;
    expect(await main(['worker', '--redis', url, '--demo'], cli)).toBe(1);
    const said = cli.stderrText();
    expect(said).toContain(`cannot reach Redis at redis://127.0.0.1:${port}/0: `);
    expect(said).not.toMatch(/s3cr|t-tail|hunter2|app:|password/);
  });

  it.each([
    ['redis://127.0.0.1:6379', 'redis://127.0.0.1:6379'],
    ['redis://:pw@host:6379', 'redis://host:6379'],
    ['rediss://user:p@a:ss@host/2', 'rediss://host/2'],
    ['redis://only-secret@host', 'redis://host'],
    ['//u:x@y@host', '//host'],
    ['redis://host:6379?password=a&PASSWORD=b', 'redis://host:6379'],
    // An '@' after a '#': the user part may have held the '#' (redis://u#pw@host), so the start is no host.
    ['redis://host/0#frag@x', '(a url that cannot be read)'],
    ['/run/redis.sock', '/run/redis.sock'],
  ])('shownUrl(%j) is %j', (url, shown) => {
    expect(shownUrl(url)).toBe(shown);
  });
});
