import { builtinModules } from 'node:module';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const ENTRY = new URL('../../src/client/index.ts', import.meta.url).pathname;
const NODE_BUILTINS = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

/** Bundles the client entry as a browser would get it: platform browser, no Node shims or polyfills. */
async function bundleClient() {
  return build({
    entryPoints: [ENTRY],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2020',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
}

describe('rxharness/client bundles for the browser as it is', () => {
  it('esbuild (platform: browser) bundles it without one Node import', async () => {
    const result = await bundleClient();
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
    const inputs = Object.keys(result.metafile.inputs);
    // every input is our source, rxjs, tslib, eventsource-parser, or the task tree's text helpers
    // (strip-ansi, string-width: plain ESM, no Node): nothing of Node's, nothing else
    expect(inputs.filter((path) => NODE_BUILTINS.has(path) || path.startsWith('node:'))).toEqual([]);
    const packages = new Set(inputs.filter((p) => p.includes('node_modules/')).map((p) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(p)![1]));
    expect([...packages].sort()).toEqual(['ansi-regex', 'eventsource-parser', 'get-east-asian-width', 'rxjs', 'string-width', 'strip-ansi', 'tslib']);
    expect(inputs.filter((p) => p.startsWith('src/')).some((p) => p.startsWith('src/client/'))).toBe(true);
    const imports = Object.values(result.metafile.inputs).flatMap((input) => input.imports.map((i) => i.path));
    expect(imports.filter((path) => NODE_BUILTINS.has(path) || path.startsWith('node:'))).toEqual([]);
    const code = result.outputFiles[0]!.text;
    expect(code).not.toMatch(/\brequire\(|from ["']node:|import\(["']node:/);
    expect(code).toContain('fromRun');
  });

  it('fails, naming the module, when a Node import slips in (the check can fail)', async () => {
    const result = await build({
      stdin: { contents: "export * from './index.ts'; export { readFile } from 'node:fs/promises';", resolveDir: new URL('../../src/client/', import.meta.url).pathname, loader: 'ts' },
      bundle: true,
      platform: 'browser',
      write: false,
      logLevel: 'silent',
    }).catch((error: { errors: Array<{ text: string }> }) => error);
    expect('errors' in result && result.errors.map((e) => e.text).join('\n')).toMatch(/node:fs\/promises/);
  });
});
