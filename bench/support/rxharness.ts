/**
 * The library as shipped: `dist/index.js` (run `npm run build` first; `npm run bench` does),
 * typed with the source's declarations so the bench type-checks without a build. The path
 * is a variable so `tsc` does not try to resolve `dist/` itself.
 *
 * @module
 */
import type * as RxHarness from '../../src/index.js';

const DIST_ENTRY = new URL('../../dist/index.js', import.meta.url).href;

async function load(): Promise<typeof RxHarness> {
  try {
    return (await import(DIST_ENTRY)) as typeof RxHarness;
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new Error(`bench: cannot load the build (${why}); run \`npm run build\` first (\`npm run bench\` does)`);
  }
}

/** Every export of `rxharness`, loaded from the build. */
export const rx = await load();
