// A module hook for tests: `ioredis` and `bullmq` cannot be found, as on a machine that
// installed rxharness without its optional peers.
import { register } from 'node:module';

register(
  'data:text/javascript,' +
    encodeURIComponent(`
export async function resolve(specifier, context, next) {
  if (specifier === 'ioredis' || specifier === 'bullmq') {
    throw Object.assign(new Error("Cannot find package '" + specifier + "'"), { code: 'ERR_MODULE_NOT_FOUND' });
  }
  return next(specifier, context);
}`),
);
