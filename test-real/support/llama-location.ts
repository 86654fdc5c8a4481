/**
 * Where the real-server lane finds llama.cpp's `llama-server`, its tiny random-weight model
 * and the chat templates: `RXHARNESS_LLAMA_DIR`, else `../shared/llama` next to the repository
 * (where CI checks it out). See `../shared/llama/README.md`.
 *
 * @module
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** What {@link findLlama} found: the folder, or why the lane cannot run. */
export type LlamaLocation = { readonly dir: string; readonly version: string } | { readonly missing: string };

/** The folder that should hold `llama-server`, whether or not it does. */
export function llamaDir(): string {
  return resolve(process.env.RXHARNESS_LLAMA_DIR ?? join(REPO_ROOT, '../shared/llama'));
}

/**
 * Looks for an executable `llama-server`, the model and the templates, and runs
 * `llama-server --version` once: a binary that is there but cannot start (a missing shared
 * library, another CPU) is reported as missing with its own words, never skipped silently.
 */
export function findLlama(dir = llamaDir()): LlamaLocation {
  const binary = join(dir, 'llama-server');
  for (const [path, mode] of [[binary, constants.X_OK], [join(dir, 'llama-2-tiny-random.gguf'), constants.R_OK], [join(dir, 'templates'), constants.R_OK]] as const) {
    try {
      accessSync(path, mode);
    } catch {
      return { missing: `${path} is missing or not ${mode === constants.X_OK ? 'executable' : 'readable'}` };
    }
  }
  const run = spawnSync(binary, ['--version'], { encoding: 'utf8', timeout: 10_000 });
  const said = `${run.stdout ?? ''}${run.stderr ?? ''}`.trim();
  if (run.status !== 0) return { missing: `${binary} --version failed (${run.error?.message ?? `exit ${run.status}`}): ${said.slice(0, 400)}` };
  return { dir, version: said.split('\n')[0] ?? 'unknown' };
}
