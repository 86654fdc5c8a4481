/**
 * Messages on the backend's channels that their readers throw on (not JSON, `null`): the
 * channel hub used to drop them without a word. Now each is skipped and said in a process
 * warning (code `RXHARNESS_BAD_REDIS_DATA`), at most once a minute per channel: ten thousand
 * forged messages on the tasks and runs channels are one warning for each, with the message
 * cut to 200 characters and its escapes marked; nothing is thrown. The runs channel's reader
 * says them itself, as the tasks channel's does (what was wrong, what skipping it means): it
 * used to leave them to the hub, which said only the parser's error and "It changed nothing here".
 */
import { describe, expect, it } from 'vitest';
import { RUNS_SKIPPED } from '../../src/backend/run-message.js';
import { SKIPPED } from '../../src/backend/task-channel.js';
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
        // Each channel's reader says what was wrong and what skipping its messages means.
        const consequence = channel === keys.tasksChannel ? SKIPPED : RUNS_SKIPPED;
        expect(warnings.messages[i]).toContain(`(it is not JSON): <U+001B>]0;owned<U+0007>${'y'.repeat(175)}…. ${consequence}.`);
        expect(warnings.messages[i]).not.toMatch(/[\u001b\u0007]/);
      }
    } finally {
      warnings.stop();
    }
  });

  it('a runs-channel message of an op no engine sends is said too, as on the tasks channel', async () => {
    const k = await scale.kit(STALL_MS);
    const backend = await k.backend();
    const { redis, keys } = backend.parts;
    const warnings = badDataWarnings();
    try {
      await redis.publish(keys.runsChannel, '{"op":"steal","runId":"run_1"}');
      await caughtUp(backend);
      await warningsDelivered();
      expect(warnings.messages).toEqual([expect.stringContaining(`Skipped a message on ${keys.runsChannel} that no engine or worker publishes (its "op" is not one of put, forget, cancel, answer, answered): {"op":"steal","runId":"run_1"}. ${RUNS_SKIPPED}.`)]);
    } finally {
      warnings.stop();
    }
  });
});
