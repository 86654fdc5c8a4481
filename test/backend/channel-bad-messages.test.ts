/**
 * Messages on the backend's channels that their readers throw on (not JSON, `null`): the
 * channel hub used to drop them without a word. Now each is skipped and said in a process
 * warning (code `RXHARNESS_BAD_REDIS_DATA`), at most once a minute per channel: ten thousand
 * forged messages on the tasks and runs channels are one warning for each, with the message
 * cut to 200 characters and its escapes marked; nothing is thrown.
 */
import { describe, expect, it } from 'vitest';
import { badDataWarnings, warningsDelivered } from './planted-data.js';
import { HAS_REDIS } from './redis-server.js';
import { caughtUp, useScaleKits } from './scale-kit.js';

const STALL_MS = 60_000;

describe.skipIf(!HAS_REDIS)('messages a channel reader throws on', () => {
  const scale = useScaleKits();

  it('10,000 on each of two channels make one warning per channel', { timeout: 120_000 }, async () => {
    const k = await scale.kit(STALL_MS);
    const backend = await k.backend();
    const { redis, keys } = backend.parts;
    const warnings = badDataWarnings();
    try {
      const first = `\u001b]0;owned\u0007${'y'.repeat(500)}`;
      for (const channel of [keys.tasksChannel, keys.runsChannel]) {
        await redis.publish(channel, first);
        for (let from = 1; from < 10_000; from += 1000) {
          const batch = redis.multi();
          for (let i = from; i < Math.min(from + 1000, 10_000); i++) batch.publish(channel, i % 2 ? 'null' : '{not json');
          await batch.exec();
        }
      }
      await caughtUp(backend);
      await warningsDelivered();
      expect(warnings.messages).toHaveLength(2);
      for (const [i, channel] of [keys.tasksChannel, keys.runsChannel].entries()) {
        expect(warnings.messages[i]).toContain(`Skipped a message on ${channel} that no engine or worker publishes (`);
        // The tasks channel's reader says what skipping its messages means; the runs channel's, the hub.
        const consequence = channel === keys.tasksChannel ? "The copies of other engines' tasks were kept as they were" : 'It changed nothing here.';
        expect(warnings.messages[i]).toContain(`): <U+001B>]0;owned<U+0007>${'y'.repeat(190)}…. ${consequence}`);
        expect(warnings.messages[i]).not.toMatch(/[\u001b\u0007]/);
      }
    } finally {
      warnings.stop();
    }
  });
});
