/**
 * The fault-injection scenario: the main agent (through the fake OpenAI server and the real
 * `openai` client) runs one `multitask` of three children — `alpha` (index 1) and `beta`
 * (index 3) answer normally, `faulty` (index 2) meets whatever fault the test scripts — and
 * readers for what the parent's model got back.
 *
 * @module
 */
import type { HarnessEngine } from '../../src/engine/harness-engine.js';
import type { HarnessEngineOptions } from '../../src/engine/engine-options.js';
import type { AgentEvent } from '../../src/events/agent-event.js';
import type { AgentInput } from '../../src/subagent/define-agent.js';
import { expect } from 'vitest';
import { testAgent } from './agent-turns.js';
import { own, record, wraps, type EventRecording } from './collect-events.js';
import { startDelegationFixture, type AgentRoute, type DelegationFixture } from './delegation-fixture.js';
import { multitaskReply, steps, type TaskTuple } from './delegation-script.js';
import { openAIModelFor } from './openai-model.js';

/** The batch: the faulty child sits in the middle, so both neighbours are checked. */
export const FAULT_BATCH: readonly TaskTuple[] = [
  [1, 'alpha', 'job one', 'first'],
  [2, 'faulty', 'job two', 'second'],
  [3, 'beta', 'job three', 'third'],
];

/** The index of the faulty child in {@link FAULT_BATCH}. */
export const FAULTY_INDEX = 2;

/** What the healthy siblings answer (their task results must keep it). */
export const SIBLING_ANSWERS: Readonly<Record<number, string>> = { 1: 'alpha did job one', 3: 'beta did job three' };

/** How to set up one fault. */
export interface FaultSetup {
  /** Answers the faulty child's requests. */
  readonly faulty: AgentRoute;
  /** Fields of the faulty child's definition (e.g. `maxSteps`). */
  readonly faultyAgent?: Omit<AgentInput, 'name' | 'description' | 'systemPrompt'>;
  /** Client retries of the shared model (default 0). */
  readonly maxRetries?: number;
  /** More engine options (custom `tools`, `toolTimeoutMs`...). */
  readonly engine?: Partial<HarnessEngineOptions>;
}

/** A started fault scenario. */
export interface FaultRun {
  readonly fixture: DelegationFixture;
  readonly engine: HarnessEngine;
  /** The parent's stream, recorded; settled once `done` resolves. */
  readonly run: EventRecording;
}

/** Starts the server and the engine and subscribes to the parent's run; close `fixture` after. */
export async function startFaultRun(setup: FaultSetup): Promise<FaultRun> {
  const fixture = await startDelegationFixture({
    main: steps(multitaskReply(FAULT_BATCH)),
    alpha: (turn) => ({ text: `alpha did ${turn.prompt}` }),
    beta: (turn) => ({ text: `beta did ${turn.prompt}` }),
    faulty: setup.faulty,
  });
  const engine = fixture.engine(
    // A quiet client: the malformed chunk would otherwise be printed by the client's logger.
    { model: openAIModelFor(fixture.server, { maxRetries: setup.maxRetries ?? 0 }), multitaskMaxTasks: 3, ...setup.engine },
    [testAgent('alpha'), testAgent('beta'), testAgent('faulty', setup.faultyAgent)],
  );
  return { fixture, engine, run: record(engine.stream('fan out')) };
}

/** One `<task_result>` row of a `<multitask_results>` text. */
export interface TaskRow {
  readonly index: number;
  readonly agentName: string;
  readonly status: string;
  /** The content, CDATA sections joined back. */
  readonly content: string;
}

/** Reads the rows of a `<multitask_results>` text, in the order they appear. */
export function taskRows(text: string): TaskRow[] {
  const rows = [...text.matchAll(/<task_result>([\s\S]*?)<\/task_result>/g)].map((m) => m[1]!);
  return rows.map((row) => {
    const field = (tag: string): string => new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(row)?.[1] ?? '';
    const content = [...field('result_content').matchAll(/<!\[CDATA\[([\s\S]*?)\]\]>/g)].map((m) => m[1]).join('');
    return { index: Number(field('index')), agentName: field('agent_name'), status: field('result_status'), content };
  });
}

/** The rows of the parent's (only) `multitask` result. */
export function multitaskRows(events: readonly AgentEvent[]): TaskRow[] {
  const ends = own(events, 'ToolCallEnd').filter((e) => e.toolName === 'multitask');
  if (ends.length !== 1) throw new Error(`expected one multitask ToolCallEnd in the parent's stream, got ${ends.length}`);
  return taskRows(ends[0]!.text);
}

/** What the faulty child's task result must say. */
export interface FaultyExpectation {
  readonly status: 'success' | 'failure';
  /** Matched against the faulty row's content: it must name the cause. */
  readonly content: RegExp;
}

/**
 * Waits for the run and checks the contract every fault keeps: the parent's stream completes
 * without error, its only unwrapped `RunEnd` is the last value and normal; every child ended
 * with exactly one (wrapped) `RunEnd`; the faulty row says `expected`; the siblings' rows are
 * successes with their own answers. Returns the rows.
 */
export async function expectBatchOutcome(run: EventRecording, expected: FaultyExpectation): Promise<TaskRow[]> {
  await run.done;
  expect(run.error).toBeUndefined();
  expect(run.completed).toBe(true);
  expect(own(run.events, 'RunEnd')).toHaveLength(1);
  const last = run.events.at(-1);
  expect(last).toMatchObject({ type: 'RunEnd', agentName: 'main', abnormal: false });
  const childEnds = wraps(run.events).filter((w) => w.event.type === 'RunEnd').map((w) => w.taskIndex);
  expect(childEnds.sort()).toEqual([1, 2, 3]);

  const rows = multitaskRows(run.events);
  expect(rows.map((r) => [r.index, r.agentName])).toEqual(FAULT_BATCH.map(([index, agent]) => [index, agent]));
  const faulty = rows[FAULTY_INDEX - 1]!;
  expect(faulty.status).toBe(expected.status);
  expect(faulty.content).toMatch(expected.content);
  for (const row of rows.filter((r) => r.index !== FAULTY_INDEX)) {
    expect(row).toMatchObject({ status: 'success', content: SIBLING_ANSWERS[row.index] });
  }
  // The parent's model read the whole batch back (its final answer echoes the tool result).
  expect((last as { text: string }).text).toContain(faulty.content);
  return rows;
}

/** The wrapped events of the faulty child, unwrapped, in order. */
export function faultyChildEvents(events: readonly AgentEvent[]): AgentEvent[] {
  return wraps(events).filter((w) => w.taskIndex === FAULTY_INDEX).map((w) => w.event);
}
