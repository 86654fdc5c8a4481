/**
 * The error a model's request fails with on a fake server, for the tests of how a server's
 * error is read: each fake server a test starts here is closed after it.
 *
 * @module
 */
import { firstValueFrom } from 'rxjs';
import { closedAfterEach } from '../support/closed-after-each.js';
import { FakeOpenAIServer, type FakeReply, type FakeServerOptions } from '../support/fake-openai-server.js';
import { openAIModelFor } from '../support/openai-model.js';

const HELLO = [{ role: 'user' as const, content: 'hi' }];

/** What {@link modelFailurePerTest} gives a test file. */
export interface ModelFailurePerTest {
  /** The error of one request of the model to a fake server answering `reply`; throws when the request succeeds. */
  failureOf(reply: FakeReply): Promise<Error>;
  /** A fake server for the current test, started with `options` and closed after the test. */
  start(options: FakeServerOptions): Promise<FakeOpenAIServer>;
}

/**
 * Registers the `afterEach` that closes the fake server of each test. Call once at the top
 * of a test file (or of a `describe`).
 *
 * @example
 * ```ts
 * const { failureOf } = modelFailurePerTest();
 * it('...', async () => {
 *   const error = await failureOf({ status: 400, errorMessage: 'Context size has been exceeded' });
 * });
 * ```
 */
export function modelFailurePerTest(): ModelFailurePerTest {
  const open = closedAfterEach<{ server: FakeOpenAIServer }>(['server']);
  const start = async (options: FakeServerOptions): Promise<FakeOpenAIServer> => {
    await open.server?.close(); // a second server in one test: the first is done with
    open.server = await FakeOpenAIServer.start(options);
    return open.server;
  };
  const failureOf = async (reply: FakeReply): Promise<Error> => {
    const server = await start({ replies: [reply] });
    return firstValueFrom(openAIModelFor(server).stream({ messages: HELLO })).then(
      () => { throw new Error('the request did not fail'); },
      (e: unknown) => e as Error,
    );
  };
  return { failureOf, start };
}
