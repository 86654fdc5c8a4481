import { Worker, type Queue } from 'bullmq';
import { TASK_QUEUE } from '../../src/backend/redis-keys.js';
import type { TaskJob } from '../../src/backend/task-job.js';
import { waitFor } from './scale-kit.js';

/**
 * A worker played by a test: a BullMQ worker on the task queue of the backend whose Bull prefix
 * is `bullPrefix`, that runs nothing by itself (`takeJob` takes one, holding its lock for a
 * minute, alive). Close it with `close(true)`.
 */
export function playedTaker(redisUrl: string, bullPrefix: string): Worker<TaskJob> {
  const taker = new Worker<TaskJob>(TASK_QUEUE, null, { connection: { url: redisUrl, maxRetriesPerRequest: null }, prefix: bullPrefix, autorun: false, lockDuration: 60_000 });
  taker.on('error', () => undefined);
  return taker;
}

/** Waits for one job waiting in `queue`, and has `taker` take it; answers the job's log id. */
export async function takeJob(taker: Worker<TaskJob>, queue: Queue): Promise<string> {
  await waitFor(async () => (await queue.getJobCounts('waiting')).waiting === 1);
  const job = await taker.getNextJob('taker-token', { block: false });
  return (job!.data as TaskJob).logId;
}
