// Module hooks for a child process: append every loaded module's URL that contains
// RECORD_LOADS_MATCH to the file RECORD_LOADS_FILE (hooks run on their own thread, so a file
// is the simplest way back to the test).
import { appendFileSync } from 'node:fs';
import { register } from 'node:module';

if (!process.env.RECORD_LOADS_HOOKED) {
  process.env.RECORD_LOADS_HOOKED = '1';
  register(import.meta.url);
}

export async function load(url, context, next) {
  if (url.includes(process.env.RECORD_LOADS_MATCH)) appendFileSync(process.env.RECORD_LOADS_FILE, `${url}\n`);
  return next(url, context);
}
