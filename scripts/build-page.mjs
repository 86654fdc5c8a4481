// Bundles the demo page's script (src/web/page/app.ts, built on the `rxharness/client`
// entry) into dist/web/page/page.js for the browser: esbuild, platform browser, one IIFE,
// no Node shims. demo-page.ts inlines it into the page. (esbuild comes with vite and tsx.)
import { readdirSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

// tsc compiles the page's modules one by one beside the others; only the bundle is used.
const modules = new Set(readdirSync('src/web/page').filter((f) => f.endsWith('.ts')).map((f) => f.slice(0, -3)));
for (const file of readdirSync('dist/web/page')) {
  if (modules.has(file.replace(/\.(js|d\.ts)(\.map)?$/, ''))) rmSync(`dist/web/page/${file}`);
}

const result = await build({
  entryPoints: ['src/web/page/app.ts'],
  outfile: 'dist/web/page/page.js',
  bundle: true,
  platform: 'browser',
  format: 'iife',
  target: 'es2020',
  minify: true,
  legalComments: 'eof',
  metafile: true,
  logLevel: 'warning',
});
const nodeInputs = Object.keys(result.metafile.inputs).filter((path) => path.startsWith('node:'));
if (nodeInputs.length > 0) throw new Error(`the page bundle must not import Node modules: ${nodeInputs.join(', ')}`);
