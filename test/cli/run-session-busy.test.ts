/**
 * `rxharness run --session NAME` in two processes on one workspace, end to end (the CLI from
 * the sources, the real `openai` client, the fake model server): while one run holds the
 * conversation (its model reply held back), a second fails at once saying the session is
 * busy, who holds it and its lock file; once the first ends, the next run continues the same
 * conversation and no lock is left. A holder killed with SIGKILL leaves its lock behind, and
 * the next run takes the session over.
 */
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { createGate, type Gate } from '../support/deferred.js';
import type { RecordedRequest } from '../support/fake-openai-server.js';
import { sandboxPerTest } from './sandbox-per-test.js';
import { DEADLINE_MS } from './running-command.js';
import { spawnSourceCli, type CliProcess, type CliResult } from './spawn-cli.js';

/** Each process loads the harness through tsx: seconds, more on a loaded machine. */
const TEST_TIMEOUT_MS = 4 * DEADLINE_MS;

/** Holds the reply to the prompt `hold` until opened. */
let held: Gate;
const started: CliProcess[] = [];

// Answers how many user turns it was sent, so a continued conversation shows.
const sandbox = sandboxPerTest({
  handler: async (request: RecordedRequest) => {
    const users = request.body.messages!.filter((m) => m.role === 'user');
    if (users.at(-1)?.content === 'hold') await held.promise;
    return { text: `turns: ${users.length}` };
  },
});
beforeEach(() => {
  held = createGate();
});
// Runs before the server closes and the sandbox goes (hooks run last-registered first).
afterEach(() => {
  for (const { child } of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  held.open();
});

function run(prompt: string): CliProcess {
  const args = ['run', '--workspace', sandbox.workspace.dir, '--model', 'm', '--base-url', sandbox.server.baseURL, '--session', 'notes', prompt];
  const cli = spawnSourceCli(args, { home: sandbox.home, cwd: sandbox.workspace.dir, env: { OPENAI_API_KEY: 'test-key' } });
  started.push(cli);
  return cli;
}

const sessionsDir = (): string => join(sandbox.workspace.dir, '.rxharness', 'sessions');
const lockFile = (): string => join(sessionsDir(), 'notes.lock');
const lockFilesLeft = async (): Promise<string[]> => (await readdir(sessionsDir())).filter((name) => name.includes('.lock'));

/** A run holding the session: its model request has arrived and waits for the gate. */
async function holder(): Promise<CliProcess> {
  const first = run('hold');
  await Promise.race([
    sandbox.server.waitForRequests(1, DEADLINE_MS),
    first.exited.then((r) => {
      throw new Error(`the first run ended (${r.code}) before asking the model: ${r.stderr}`);
    }),
  ]);
  expect(existsSync(lockFile())).toBe(true);
  return first;
}

/** The conversation as the store the CLI uses reads it (a seal that does not hold would throw). */
async function conversation(): Promise<string[]> {
  const messages = await new FileSessionStore(sandbox.workspace.dir, { home: sandbox.home }).load('notes');
  return messages.map((m) => `${m.role}: ${typeof m.content === 'string' ? m.content : JSON.stringify(m.content)}`);
}

function expectBusy(result: CliResult, pid: number): void {
  expect(result.code).toBe(1);
  const said = `rxharness: session "notes" is busy: run run_`;
  expect(result.stderr).toContain(said);
  expect(result.stderr).toContain(`(pid ${pid} on `);
  expect(result.stderr).toContain(`, still running; its lock file is ${lockFile()}) has not ended yet.`);
  expect(result.stderr.split('\n').filter(Boolean)).toHaveLength(1);
}

describe('rxharness run --session NAME in two processes', () => {
  it('a second run fails at once naming the holder and its lock; after the first ends, a third continues the conversation', { timeout: TEST_TIMEOUT_MS }, async () => {
    const first = await holder();
    const second = await run('meanwhile').exited;
    expectBusy(second, first.child.pid!);
    expect(sandbox.server.requests).toHaveLength(1); // the refused run never asked the model

    held.open();
    const one = await first.exited;
    expect(one).toMatchObject({ code: 0, stderr: '' });
    expect(one.stdout).toContain('turns: 1');
    expect(await lockFilesLeft()).toEqual([]);

    const third = await run('what number?').exited;
    expect(third).toMatchObject({ code: 0, stderr: '' });
    expect(third.stdout).toContain('turns: 2');
    expect(await conversation()).toEqual(['user: hold', 'assistant: turns: 1', 'user: what number?', 'assistant: turns: 2']);
    expect(await lockFilesLeft()).toEqual([]);
  });

  it('a holder killed with SIGKILL leaves its lock; the next run takes the session over and the conversation loads', { timeout: TEST_TIMEOUT_MS }, async () => {
    const first = await holder();
    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    expect(await lockFilesLeft()).toEqual(['notes.lock']);

    const next = await run('again').exited;
    expect(next).toMatchObject({ code: 0, stderr: '' });
    expect(await lockFilesLeft()).toEqual([]);
    // The killed run's turn, which never got its answer, is closed (and said so), not lost.
    expect(next.stdout).toContain('warning (session-repaired)');
    expect(next.stdout).toContain('turns: 2');
    expect(await conversation()).toEqual(['user: hold', 'assistant: (No answer: the run stopped before I replied.)', 'user: again', 'assistant: turns: 2']);
  });
});
