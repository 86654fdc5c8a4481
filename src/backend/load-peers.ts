import type { Redis, RedisOptions } from 'ioredis';
import { RedisBackendError } from './redis-backend-error.js';

/** The constructor of ioredis' client, as the module exports it. */
export type RedisClass = new (url: string, options: RedisOptions) => Redis;

/** The parts of BullMQ the backend uses. */
export type BullMQ = typeof import('bullmq');

// Imported on first use, not at the top: the package works without these optional peers
// (the embedded default needs neither), and only a Redis backend asks for them.
let redisClass: Promise<RedisClass> | undefined;
let bullmq: Promise<BullMQ> | undefined;

/** ioredis' `Redis` class, or a `RedisBackendError` naming the missing peer. */
export function loadRedis(): Promise<RedisClass> {
  redisClass ??= import('ioredis').then(
    (m) => (m.Redis ?? m.default) as unknown as RedisClass,
    (e: unknown) => {
      redisClass = undefined;
      throw missingPeer('ioredis', e);
    },
  );
  return redisClass;
}

/** BullMQ, or a `RedisBackendError` naming the missing peer. */
export function loadBullMQ(): Promise<BullMQ> {
  bullmq ??= import('bullmq').catch((e: unknown) => {
    bullmq = undefined;
    throw missingPeer('bullmq', e);
  });
  return bullmq;
}

function missingPeer(name: string, cause: unknown): RedisBackendError {
  return new RedisBackendError(
    `the Redis backend needs the optional peer dependency "${name}", which could not be loaded; install it with: npm install ioredis bullmq`,
    { cause },
  );
}
