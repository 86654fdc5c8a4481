/**
 * A subscribe that fails as a backend starts. `SharedTasks.create` and `SharedResults.create`
 * took their hold on their channel's bad-message warnings (`badMessagesOn`) before subscribing,
 * and a failed subscribe never released it: the warnings of that channel were never closed
 * (their count never said when the last real reader released them). And the channel hub kept
 * the handler of the failed listen, so the next listen on that channel took it as subscribed
 * and never heard a message.
 */
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { ChannelHub } from '../../src/backend/channel-hub.js';
import { badMessagesOn } from '../../src/backend/channel-warnings.js';
import { RedisKeys } from '../../src/backend/redis-keys.js';
import { RESULTS_SKIPPED, SharedResults } from '../../src/backend/shared-results.js';
import { SharedTasks } from '../../src/backend/shared-tasks.js';
import { SKIPPED } from '../../src/backend/task-channel.js';
import { badDataWarnings, warningsDelivered } from './planted-data.js';
import { HAS_REDIS } from './redis-server.js';
import { useScaleKits, waitFor } from './scale-kit.js';

describe.skipIf(!HAS_REDIS)('a subscribe that fails as the shared tasks and results start', () => {
  const scale = useScaleKits();

  it.each([
    ['tasks', (keys: RedisKeys) => keys.tasksChannel, SKIPPED],
    ['results', (keys: RedisKeys) => keys.resultsChannel, RESULTS_SKIPPED],
  ] as const)('(%s) releases its hold on the bad-message warnings', async (which, channelOf, consequence) => {
    const k = await scale.kit();
    const { redis } = (await k.backend()).parts;
    const keys = new RedisKeys(`${k.prefix}_closed_${which}`);
    const sub = new Redis(scale.redis.url);
    await sub.ping();
    sub.disconnect(); // every subscribe on it fails
    const hub = new ChannelHub(sub);
    const warnings = badDataWarnings();
    try {
      const create = which === 'tasks' ? SharedTasks.create(redis, keys, hub, 60_000, 'i') : SharedResults.create(redis, keys, hub);
      await expect(create).rejects.toThrow();
      // Another reader of the channel: its release is the last, which says the count held.
      const reader = badMessagesOn(channelOf(keys), consequence);
      reader.report('it is not JSON', 'one');
      reader.report('it is not JSON', 'two');
      reader.release();
      await warningsDelivered();
      expect(warnings.messages).toHaveLength(2);
      expect(warnings.messages[1]).toContain(`1 more bad messages were skipped on ${channelOf(keys)}`);
    } finally {
      warnings.stop();
      hub.close();
    }
  });

  it('a listen after a failed one subscribes, and hears the channel', async () => {
    const k = await scale.kit();
    const { redis } = (await k.backend()).parts;
    const channel = `${k.prefix}:retried`;
    // Not connected yet, and no queue: the first command fails at once, and starts the connection.
    const sub = new Redis(scale.redis.url, { lazyConnect: true, enableOfflineQueue: false });
    const hub = new ChannelHub(sub);
    try {
      await expect(hub.listen(channel, () => undefined)).rejects.toThrow();
      await waitFor(() => sub.status === 'ready');
      const heard: string[] = [];
      await hub.listen(channel, (text) => void heard.push(text));
      await redis.publish(channel, 'hello');
      await waitFor(() => heard.length === 1);
      expect(heard).toEqual(['hello']);
    } finally {
      hub.close();
    }
  });
});
