/**
 * What a test of the cost of Redis traffic needs: how many times Redis ran a command, and a
 * flood of messages published as an attacker would.
 *
 * @module
 */
import type { Redis } from 'ioredis';

/** How many times Redis ran `command` (its `INFO commandstats`), Lua scripts' calls included. */
export async function calls(redis: Redis, command: string): Promise<number> {
  const stats = await redis.info('commandstats');
  return Number(new RegExp(`^cmdstat_${command}:calls=(\\d+)`, 'm').exec(stats)?.[1] ?? 0);
}

/** Every command Redis ran so far, by name (its `INFO commandstats`), Lua scripts' calls included. */
export async function allCalls(redis: Redis): Promise<Map<string, number>> {
  const stats = await redis.info('commandstats');
  return new Map([...stats.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)].map(([, name, count]) => [name!, Number(count)]));
}

/** Publishes `message` `count` times in one pipeline, as an attacker would. */
export async function flood(redis: Redis, channel: string, message: string, count: number): Promise<void> {
  const pipeline = redis.pipeline();
  for (let i = 0; i < count; i++) pipeline.publish(channel, message);
  await pipeline.exec();
}
