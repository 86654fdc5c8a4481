/**
 * A process that claims one session of a `FileSessionStore` folder, for the tests of claims
 * across processes (session-lock-processes.test.ts). Env: `WORKSPACE`, `SESSION`, `OWNER`.
 * Prints `ready` once loaded, claims on the stdin line `go`, prints `granted` or
 * `refused <owner>`, and holds a granted claim until the stdin line `release` (then prints
 * `released`) or its end.
 *
 * @module
 */
import { createInterface } from 'node:readline';
import { FileSessionStore } from '../../src/session/file-session-store.js';

const store = new FileSessionStore(process.env.WORKSPACE!, { grantKey: 'lock-test-key' });
let release: (() => void) | undefined;

const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  if (line === 'go') {
    store.claim(process.env.SESSION!, process.env.OWNER!).then(
      (claim) => {
        if (claim.granted) release = () => claim.release();
        console.log(claim.granted ? 'granted' : `refused ${claim.owner}`);
      },
      (e: unknown) => console.log(`failed ${String(e)}`),
    );
  }
  if (line === 'release') {
    release?.();
    console.log('released');
  }
});
lines.on('close', () => release?.());
console.log('ready');
