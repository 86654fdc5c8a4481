/**
 * The shared steps of the "conversation deleted by another engine" tests
 * (`session-deleted-elsewhere*.test.ts`, `session-deleted-custom-store.test.ts`): two engines on
 * one store, a background scan on `notes`, a delete through the other engine. Each file keeps
 * its own store and its own `it`s; the steps that must be the same for every store live here, so
 * that a store cannot pass a weaker copy of them.
 *
 * @module
 */
import { expect } from 'vitest';
import type { HarnessEngine } from '../../../src/engine/harness-engine.js';
import type { SessionStore } from '../../../src/session/session-store.js';
import { settled } from '../../support/lifecycle-script.js';
import type { ScanEngines } from './scan-engines.js';

/** Two engines sharing one store object (as a user may in a process), and that store. */
export async function twoEnginesSharing<S extends SessionStore>(scan: ScanEngines, store: S): Promise<[HarnessEngine, HarnessEngine, S]> {
  const [a, b] = await scan.engines(2, () => store);
  return [a!, b!, store];
}

/** Starts the scan in the background on `notes` through `engine`; the first task id of `notes`. */
export async function startScan(engine: HarnessEngine): Promise<string> {
  await engine.call('Start the scan in the background', { sessionId: 'notes' });
  return engine.tasks.list('notes')[0]!.taskId;
}

/**
 * A result already waiting when `b` deletes `notes` is dropped: the new conversation of the id
 * sees only its own prompt. The server must answer at once (`scan.serve(Promise.resolve(), …)`).
 */
export async function expectWaitingResultDropped(scan: ScanEngines, [a, b]: readonly [HarnessEngine, HarnessEngine, ...unknown[]]): Promise<void> {
  await settled(a.tasks, await startScan(a));
  await b.sessions.delete!('notes');
  await a.call('Hi, I am new here', { sessionId: 'notes' });
  expect(scan.lastPrompt()).toBe('Hi, I am new here');
}

/** `b` deleting a conversation of its own leaves `notes` its result (`findings`, the scan's answer). */
export async function expectOtherDeleteKeepsResult(scan: ScanEngines, [a, b]: readonly [HarnessEngine, HarnessEngine, ...unknown[]], findings: string): Promise<void> {
  await settled(a.tasks, await startScan(a));
  await b.call('Hi', { sessionId: 'other' });
  await b.sessions.delete!('other');
  await a.call('Any news?', { sessionId: 'notes' });
  expect(scan.lastPrompt()).toContain(findings);
}

/** `b` deleting one task session of `notes` leaves the conversation the other task's result. */
export async function expectTaskDeleteKeepsOthers(scan: ScanEngines, [a, b]: readonly [HarnessEngine, HarnessEngine, ...unknown[]]): Promise<void> {
  await startScan(a);
  await startScan(a);
  const [first, second] = a.tasks.list('notes');
  await settled(a.tasks, first!.taskId);
  await settled(a.tasks, second!.taskId);
  await b.sessions.delete!(first!.taskId);
  await a.call('Any news?', { sessionId: 'notes' });
  expect(scan.lastPrompt()).toContain(second!.taskId);
}
