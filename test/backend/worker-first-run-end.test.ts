/**
 * A worker records a background task's result itself (its engine may be gone) by the rule of
 * an engine's own children: the child's FIRST `RunEnd` is its answer. The worker kept the
 * last one it saw, so a child that ended twice (a hostile or broken agent) had one answer in
 * the engine that launched it and another in the result the worker delivered.
 */
import { describe, expect, it } from 'vitest';
import { EMPTY_METRICS } from '../../src/events/run-metrics.js';
import { redisBackendPerFile } from './redis-backend-per-file.js';
import { HAS_REDIS } from './redis-server.js';
import { runEndsTwice } from './support/ends-twice.js';

const SESSION = 'ses_twice';

describe.skipIf(!HAS_REDIS)('a worker running a child that ends twice', () => {
  const fixture = redisBackendPerFile('worker-first-end:', 60_000);

  it("delivers the first RunEnd's answer as the background result, as the launching engine records it", async () => {
    const { parts } = fixture.backend;
    // A background child whose run ends twice, each RunEnd with its own answer.
    await runEndsTwice(fixture.backend, {
      taskId: 'task_twice',
      rootSessionId: SESSION,
      background: true,
      runId: 'run_twice',
      metrics: { ...EMPTY_METRICS, promptTokens: 4 },
      answers: ['first answer', 'second answer'],
    });
    const waiting = Object.values(await parts.redis.hgetall(parts.keys.results(SESSION))).join('\n');
    expect(waiting).toContain('first answer');
    expect(waiting).not.toContain('second answer');
  });
});
