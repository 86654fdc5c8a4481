/**
 * Runs once before the real-server lane: finds `llama-server` and tells every test file
 * where it is (`inject('llama')`). Without it the lane prints one note and every test is
 * skipped (exit 0, for a user's fresh machine); under `RXHARNESS_REQUIRE_SYSTEM=1` (CI) a
 * missing or broken binary fails the whole lane instead.
 */
import type { TestProject } from 'vitest/node';
import { systemProgram } from '../test/support/system-requirement.js';
import { findLlama, llamaDir, type LlamaLocation } from './support/llama-location.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where `llama-server` is, or why the lane is skipped. */
    llama: LlamaLocation;
  }
}

export default function setup(project: TestProject): void {
  const location = findLlama();
  const found = 'dir' in location ? location : undefined;
  const how = `put llama.cpp's llama-server, llama-2-tiny-random.gguf and templates/ in ${llamaDir()} (see ../shared/llama/README.md), or set RXHARNESS_LLAMA_DIR (${'missing' in location ? location.missing : ''})`;
  if (systemProgram('llama-server', found?.dir, how)) process.stderr.write(`[rxharness test:real] ${found?.dir}/llama-server: ${found?.version}\n`);
  project.provide('llama', location);
}
