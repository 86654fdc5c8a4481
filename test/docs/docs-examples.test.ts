import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it, type TestContext } from 'vitest';
import { HAS_REDIS } from '../backend/redis-server.js';

// Every TypeScript block in the README and the guides is a copy of a file in docs/examples/
// (named by the `<!-- example: ... -->` comment above it), and every such file runs.
const root = join(import.meta.dirname, '..', '..');
const guides = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const examples = readdirSync(join(root, 'docs', 'examples')).filter((f) => f.endsWith('.ts')).map((f) => `docs/examples/${f}`);
const run = promisify(execFile);

interface Block {
  readonly guide: string;
  readonly line: number;
  readonly file: string | undefined;
  readonly code: string;
}

function tsBlocks(guide: string): Block[] {
  const lines = readFileSync(join(root, guide), 'utf8').split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(ts|typescript)\s*$/.test(lines[i]!)) continue;
    const end = lines.indexOf('```', i + 1);
    const marker = /<!-- example: (\S+) -->/.exec(lines[i - 1] ?? '');
    blocks.push({ guide, line: i + 1, file: marker?.[1], code: lines.slice(i + 1, end).join('\n') });
    i = end;
  }
  return blocks;
}

const blocks = guides.flatMap(tsBlocks);

/** Shell blocks marked `<!-- run -->` are run too. */
function shellBlocks_(guide: string): Omit<Block, 'file'>[] {
  const lines = readFileSync(join(root, guide), 'utf8').split('\n');
  const found: Omit<Block, 'file'>[] = [];
  lines.forEach((line, i) => {
    if (line === '```sh' && lines[i - 1] === '<!-- run -->') {
      found.push({ guide, line: i + 1, code: lines.slice(i + 1, lines.indexOf('```', i + 1)).join('\n') });
    }
  });
  return found;
}
const shellBlocks = guides.flatMap(shellBlocks_);

/**
 * An example's output with what differs from run to run replaced by placeholders (ids,
 * times and counts, temporary folders, ports), so the rest is compared exactly. The demo's
 * survey reads this repository, whose files change with the code (and differ between a
 * working copy and a fresh clone): what it quotes of them is masked too.
 */
function stable(stdout: string): string {
  return stdout
    .replaceAll(root, '<repo>')
    .replace(/(ses|run|task)_[0-9a-f][0-9a-f-]*/g, '$1_<id>')
    .replace(/\/tmp\/[^\s'"]+/g, '<tmp>')
    .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>')
    .replace(/(TODO\/FIXME lines in src\/, e\.g\. )[^\n]*/g, '$1<a line>')
    .replace(/(top-level entries \()[^)\n]*\)?/g, '$1<entries>)')
    .replace(/(Markdown files, for example: )[^\n]*/g, '$1<files>')
    .replace(/\d[\d,.]*/g, 'N')
    .trimEnd();
}

/**
 * Examples that start Debian's redis-server: skipped with a note where it is missing (a
 * failure in CI). Skipped as tests of their own, not left out: a left-out example's snapshot
 * would be obsolete, which fails `vitest run` under CI=true.
 */
const NEEDS_REDIS = new Set(['docs/examples/scaling-workers.ts']);

/** Examples whose tasks run side by side on real files: the order of their lines may vary. */
const UNORDERED = new Set(['docs/examples/adapters-terminal-tree.ts']);

describe('documentation examples', () => {
  it('has examples to check', () => {
    expect(blocks.length).toBeGreaterThan(10);
  });

  it.each(blocks.map((b) => [`${b.guide}:${b.line}`, b] as const))('%s is a copy of its example file', (_where, block) => {
    expect(block.file, 'a TypeScript block needs an <!-- example: docs/examples/x.ts --> line above it').toBeDefined();
    expect(block.code.trim()).toBe(readFileSync(join(root, block.file!), 'utf8').trim());
  });

  it('shows every example file in some guide', () => {
    const shown = new Set(blocks.map((b) => b.file));
    expect(examples.filter((f) => !shown.has(f))).toEqual([]);
  });

  // Named by their place among the guide's shell examples, not by line: a snapshot keyed by
  // line turns obsolete (and fails CI) whenever prose above it changes.
  const named = shellBlocks.map((b, i) => {
    const ordinal = shellBlocks.slice(0, i).filter((o) => o.guide === b.guide).length + 1;
    return [`${b.guide} shell example ${ordinal}`, b.code] as const;
  });
  it.concurrent.for(named)('%s runs offline', { timeout: 70_000 }, async ([, code], { expect }) => {
    // In this repository the command is the built CLI; users get it as `npx rxharness`.
    const script = code.replaceAll('npx rxharness', `${JSON.stringify(process.execPath)} dist/cli.js`);
    const env = { ...process.env, OPENAI_API_KEY: '', RXHARNESS_DEMO_DELAY_MS: '0', NO_COLOR: '1' };
    const { stdout } = await run('sh', ['-c', `set -e\n${script}`], { cwd: root, env, timeout: 60_000 });
    // The demo's tasks run side by side on real files: the order of their lines may vary.
    expect(stable(stdout).split('\n').sort().join('\n')).toMatchSnapshot();
  });

  const printsWhatItsGuideSays = async (file: string, { expect }: TestContext): Promise<void> => {
    const env = { ...process.env, OPENAI_API_KEY: '', OPENAI_BASE_URL: '', NO_COLOR: '1' };
    const { stdout } = await run(process.execPath, ['--import', 'tsx', file], { cwd: root, env, timeout: 60_000 });
    const output = stable(stdout);
    expect(UNORDERED.has(file) ? output.split('\n').sort().join('\n') : output).toMatchSnapshot();
  };
  const title = '%s runs offline and prints what its guide says';
  it.concurrent.for(examples.filter((f) => !NEEDS_REDIS.has(f)))(title, { timeout: 70_000 }, printsWhatItsGuideSays);
  it.skipIf(!HAS_REDIS).concurrent.for(examples.filter((f) => NEEDS_REDIS.has(f)))(title, { timeout: 70_000 }, printsWhatItsGuideSays);
});
