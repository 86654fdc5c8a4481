import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consumerProject, node, packInto, REPO, tsc, type PackInfo } from './consumer-project.js';

/**
 * The package as a user installs it: `npm pack` of this repository (after `npm test`'s
 * build), installed into consumer projects that import it from ES modules and CommonJS, and
 * typechecked by TypeScript with `NodeNext` and `Bundler` resolution.
 */

// One offline run of the engine through the public entry, and the client and protocols entries loaded.
const ESM_PROGRAM = `
import { HarnessEngine, ScriptedModel } from 'rxharness';
import { terminalRunEnd } from 'rxharness/client';
import { agUiHandler, chatHandler } from 'rxharness/protocols';
const engine = new HarnessEngine({ model: new ScriptedModel([{ text: 'hello from the tarball' }]), workspace: process.cwd(), homeDir: process.cwd() });
const result = await engine.call('hi');
await engine.close();
console.log(JSON.stringify({ text: result.text, client: typeof terminalRunEnd, protocols: [typeof agUiHandler, typeof chatHandler] }));
`;

const CJS_PROGRAM = `
const { HarnessEngine, ScriptedModel } = require('rxharness');
const { terminalRunEnd } = require('rxharness/client');
const { name } = require('rxharness/package.json');
const engine = new HarnessEngine({ model: new ScriptedModel([{ text: 'hello from require' }]), workspace: process.cwd(), homeDir: process.cwd() });
engine.call('hi').then(async (result) => {
  await engine.close();
  console.log(JSON.stringify({ text: result.text, client: typeof terminalRunEnd, name }));
});
`;

// Uses types from both entries, and an option whose type comes from a dependency's types.
const TS_PROGRAM = `
import { HarnessEngine, ScriptedModel, defineTool, type AgentEvent, type HarnessEngineOptions } from 'rxharness';
import { terminalRunEnd } from 'rxharness/client';
const shout = defineTool({
  name: 'shout',
  description: 'Shouts.',
  input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false } as const,
  execute: ({ text }) => text.toUpperCase(),
});
const options: HarnessEngineOptions = { model: new ScriptedModel([{ text: 'hi' }]), tools: [shout], mcpServers: { fs: { command: 'node', args: ['server.js'] } } };
const engine = new HarnessEngine(options);
engine.stream('x').pipe(terminalRunEnd()).subscribe((e: AgentEvent) => console.log(e.type));
`;

const tsconfig = (module: string, moduleResolution: string, files: string[]): string =>
  JSON.stringify({ compilerOptions: { module, moduleResolution, target: 'es2022', strict: true, noEmit: true, skipLibCheck: true, types: ['node'] }, files });

let dir: string;
let pack: PackInfo & { tarball: string };

beforeAll(async () => {
  if (!existsSync(join(REPO, 'dist/index.js'))) throw new Error('dist/ is missing: run `npm run build` first (npm test does)');
  dir = await mkdtemp(join(tmpdir(), 'rxharness-pack-'));
  pack = await packInto(dir);
}, 60_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the packed tarball', () => {
  it('holds the built package and its sources (for the source and declaration maps), not the tests', async () => {
    const paths = pack.files.map((f) => f.path);
    for (const file of ['package.json', 'README.md', 'LICENSE', 'dist/index.js', 'dist/index.d.ts', 'dist/client/index.js', 'dist/client/index.d.ts', 'dist/cli.js', 'dist/web/page/page.js']) {
      expect(paths).toContain(file);
    }
    expect(paths.some((p) => p.startsWith('dist/subagent/builtin/'))).toBe(true);
    // The maps point into src/: shipped, so a debugger and "go to definition" find the code.
    expect(paths).toContain('src/index.ts');
    // The guides (what the README and the CLI's help point at), not their examples or the API pages.
    expect(paths).toContain('docs/cli.md');
    const guide = (p: string): boolean => /^docs\/[^/]+\.md$/.test(p);
    expect(paths.filter((p) => !p.startsWith('dist/') && !p.startsWith('src/') && !guide(p) && !['package.json', 'README.md', 'LICENSE', 'client/package.json', 'protocols/package.json'].includes(p))).toEqual([]);
    const manifest = JSON.parse(await readFile(join(REPO, 'package.json'), 'utf8')) as { exports: Record<string, Record<string, string>>; scripts: Record<string, string> };
    // require() of an ES module needs a condition it knows: `default`.
    expect(manifest.exports['.']).toMatchObject({ types: './dist/index.d.ts', default: './dist/index.js' });
    expect(manifest.exports['./client']).toMatchObject({ default: './dist/client/index.js' });
    expect(manifest.exports['./protocols']).toMatchObject({ types: './dist/protocols/index.d.ts', default: './dist/protocols/index.js' });
    expect(paths).toContain('dist/protocols/index.js');
    // A git install and a pack of a fresh clone build dist/ first.
    expect(manifest.scripts['prepare']).toBe('npm run build');
  });

  it('runs from an ES module consumer', async () => {
    const esm = join(dir, 'esm');
    await consumerProject(esm, pack.tarball, { name: 'esm-consumer', private: true, type: 'module' }, { 'main.js': ESM_PROGRAM });
    const out = await node(esm, ['main.js']);
    expect(out.stderr).toBe('');
    expect(JSON.parse(out.stdout)).toEqual({ text: 'hello from the tarball', client: 'function', protocols: ['function', 'function'] });
  });

  it('runs from a CommonJS consumer (require of the ES module package, Node >= 20.19)', async () => {
    const cjs = join(dir, 'cjs');
    await consumerProject(cjs, pack.tarball, { name: 'cjs-consumer', private: true }, { 'main.js': CJS_PROGRAM });
    const out = await node(cjs, ['main.js']);
    expect(out.code, out.stderr).toBe(0);
    expect(JSON.parse(out.stdout)).toEqual({ text: 'hello from require', client: 'function', name: 'rxharness' });
  });

  it('runs its command line', async () => {
    const bin = join(dir, 'bin');
    await consumerProject(bin, pack.tarball, { name: 'bin-consumer', private: true }, {});
    const out = await node(bin, ['node_modules/rxharness/dist/cli.js', '--help']);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toContain('rxharness');
    // Every guide a help names is in the installed package, where its last line says.
    for (const command of [[], ['run'], ['agents'], ['serve'], ['worker']]) {
      const help = (await node(bin, ['node_modules/rxharness/dist/cli.js', ...command, '--help'])).stdout;
      const named = [...help.matchAll(/docs\/([\w-]+\.md)/g)].map((m) => m[1]!);
      if (named.length === 0) continue;
      const folder = /^Guides \(docs\/\*\.md\): (.+)$/m.exec(help)?.[1];
      expect(folder, `rxharness ${command.join(' ')} --help names ${named.join(', ')} but not where they are`).toBe(join(bin, 'node_modules/rxharness/docs/'));
      for (const file of named) expect(existsSync(join(folder!, file)), `${command.join(' ')} --help: ${file}`).toBe(true);
    }
  }, 90_000);

  it('typechecks with the legacy moduleResolution node10, which ignores exports (rxharness/client through its folder)', async () => {
    const legacy = join(dir, 'node10');
    await consumerProject(legacy, pack.tarball, { name: 'node10-consumer', private: true }, {
      'app.ts': TS_PROGRAM,
      'tsconfig.json': tsconfig('commonjs', 'node10', ['app.ts']),
    });
    const out = await tsc(legacy, 'tsconfig.json');
    expect(out.stdout + out.stderr).toBe('');
    expect(out.code).toBe(0);
  }, 90_000);

  it('typechecks in TypeScript consumers: NodeNext (ESM and CommonJS files) and Bundler', async () => {
    const ts = join(dir, 'ts');
    await consumerProject(ts, pack.tarball, { name: 'ts-consumer', private: true, type: 'module' }, {
      'app.ts': TS_PROGRAM,
      // A CommonJS file of the same project: TypeScript >= 5.8 allows its import of an ES module under nodenext.
      'app.cts': TS_PROGRAM,
      'tsconfig.nodenext.json': tsconfig('nodenext', 'nodenext', ['app.ts', 'app.cts']),
      'tsconfig.bundler.json': tsconfig('esnext', 'bundler', ['app.ts']),
    });
    const [nodenext, bundler] = await Promise.all([tsc(ts, 'tsconfig.nodenext.json'), tsc(ts, 'tsconfig.bundler.json')]);
    expect(nodenext.stdout + nodenext.stderr).toBe('');
    expect(bundler.stdout + bundler.stderr).toBe('');
    expect([nodenext.code, bundler.code]).toEqual([0, 0]);
    // About 10 s alone; more while the rest of the suite runs beside it.
  }, 90_000);
});
