/**
 * Holds every subscriber connection of a Redis down while a test changes things: the channels
 * carry nothing to the hubs meanwhile, as in a blip. Deterministic: the connections are cut and
 * new ones refused (`maxclients 1`) in one transaction, so no hub is back before `whileDown`
 * is done; then they are let back, and the hubs subscribe again.
 *
 * @module
 */
import type { Redis } from 'ioredis';
import { waitFor } from './scale-kit.js';

/**
 * Cuts every pub/sub connection (refusing new ones), runs `whileDown` (on connections already
 * open, such as `admin`), lets connections back, and resolves once `channel` has `subscribers`
 * again (each hub resubscribed).
 */
export async function withHubsDown(admin: Redis, channel: string, subscribers: number, whileDown: () => Promise<void>): Promise<void> {
  const [, limit] = (await admin.config('GET', 'maxclients')) as [string, string];
  await admin.multi().config('SET', 'maxclients', '1').call('CLIENT', 'KILL', 'TYPE', 'pubsub').exec();
  try {
    await whileDown();
  } finally {
    await admin.config('SET', 'maxclients', limit);
  }
  await waitFor(async () => {
    const [, count] = (await admin.call('PUBSUB', 'NUMSUB', channel)) as [string, number];
    return count >= subscribers;
  }, 15_000);
}
