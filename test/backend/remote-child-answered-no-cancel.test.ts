import { describe, expect, it } from 'vitest';
import { testAgent } from '../support/agent-turns.js';
import { steps, taskReply } from '../support/delegation-script.js';
import { HAS_REDIS } from './redis-server.js';
import { eventsOf, useScaleKits, waitFor } from './scale-kit.js';

const AGENTS = [testAgent('explorer')];

// A foreground task answers at its child's RunEnd and lets the child's stream go then (it may
// never complete). On a worker, that unsubscribe came before the launcher read the log's end,
// and it sent the finished job a cancel: the worker then ended its log "cancelled".
describe.skipIf(!HAS_REDIS)('a remote child that answered', () => {
  const scale = useScaleKits();

  it('is sent no cancel when the parent lets it go at its RunEnd: its log ends complete', async () => {
    const k = await scale.kit(30_000);
    k.fixture.route({ main: steps(taskReply('explorer', 'find it', 'find')), explorer: () => ({ text: 'found it' }) });
    const probe = await k.backend();
    const { redis, keys } = probe.parts;
    const engine = await k.engine({ distributeTasks: true }, AGENTS);
    await k.worker();
    const events = await eventsOf(engine.stream('go'));
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false });
    const logs = (await redis.keys(keys.log('*'))).filter((key) => !key.includes(':log:run_'));
    expect(logs).toHaveLength(1);
    const logId = logs[0]!.slice(keys.log('').length);
    const ends = async (): Promise<string[]> => (await redis.xrange(keys.log(logId), '-', '+')).filter(([, f]) => f[0] === 'end').map(([, f]) => JSON.parse(f[1]!).kind as string);
    await waitFor(async () => (await ends()).length > 0);
    expect(await ends()).toEqual(['complete']);
    expect(await redis.exists(keys.cancelled(logId))).toBe(0);
  });
});
