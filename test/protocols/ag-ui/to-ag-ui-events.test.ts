import { verifyEvents } from '@ag-ui/client';
import type { AGUIEvent } from '@ag-ui/core';
import fc from 'fast-check';
import { concat, from, lastValueFrom, Observable, throwError, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/events/agent-event.js';
import { toAgUiEvents } from '../../../src/protocols/ag-ui/to-ag-ui-events.js';
import { runEnd, wrap } from '../../support/event-fixtures.js';
import { eventsOf, mainRun } from '../run-scripts.js';

/** The AG-UI events of a stream, through the operator. */
const agUi = (source: Observable<AgentEvent>): Promise<AGUIEvent[]> => lastValueFrom(source.pipe(toAgUiEvents({ threadId: 't1' }), toArray()));

/** What `@ag-ui/client` makes of the events: its verifier throws on a sequence that breaks the protocol. */
// (Typed loosely: @ag-ui/client's Observable type may come from its own copy of rxjs.)
const verify = verifyEvents(false) as unknown as (source: Observable<AGUIEvent>) => Observable<unknown>;
const verified = (events: readonly AGUIEvent[]): Promise<unknown[]> => lastValueFrom(verify(from(events)).pipe(toArray()));

const TERMINAL = new Set(['RUN_FINISHED', 'RUN_ERROR']);

describe('toAgUiEvents', () => {
  it('ends every run with exactly one RUN_FINISHED or RUN_ERROR, last, in a sequence the AG-UI client accepts (any tree, any interleaving, any cut)', async () => {
    await fc.assert(
      fc.asyncProperty(mainRun, async ({ plan, cut, cutAt }) => {
        const events = eventsOf(plan, 'run_main', 'main');
        const kept = cut === 'none' ? events : events.slice(0, cutAt % events.length);
        const source = cut === 'error' ? concat(from(kept), throwError(() => new Error('the stream broke'))) : from(kept);
        const out = await agUi(source);
        expect(out[0]!.type).toBe('RUN_STARTED');
        expect(out.filter((e) => TERMINAL.has(e.type))).toHaveLength(1);
        expect(TERMINAL.has(out.at(-1)!.type)).toBe(true);
        const expected = cut !== 'none' ? 'RUN_ERROR' : plan.ending === 'abnormal' ? 'RUN_ERROR' : 'RUN_FINISHED';
        expect(out.at(-1)!.type).toBe(expected);
        await verified(out); // throws on anything AG-UI forbids: events after the end, a step or subagent left open, ids reused
        // tool call ids are unique in the thread, though every run's model says call_0
        const starts = out.flatMap((e) => (e.type === 'TOOL_CALL_START' ? [e.toolCallId] : []));
        expect(new Set(starts).size).toBe(starts.length);
      }),
      { numRuns: 300 },
    );
  });

  it("never ends the AG-UI run at a child's RunEnd: what comes after it is still shown, then the run's own end", async () => {
    const child = (event: AgentEvent) => wrap(event, { parentRunId: 'r1', taskId: 'task_a', runId: 'c1' });
    const out = await agUi(
      from<AgentEvent[]>([
        { type: 'RunStart', runId: 'r1', agentName: 'main', sessionId: 's', prompt: 'p' },
        child({ type: 'RunStart', runId: 'c1', agentName: 'alpha', sessionId: 'task_a', prompt: 'q' }),
        child(runEnd('c1', 'alpha', 'child answer')),
        { type: 'ReasonDelta', runId: 'r1', agentName: 'main', step: 2, kind: 'text', text: 'after the child' },
        runEnd('r1', 'main', 'after the child'),
      ]),
    );
    expect(out.map((e) => e.type)).toEqual([
      'RUN_STARTED',
      'STEP_STARTED',
      'SUBAGENT_STARTED',
      'SUBAGENT_FINISHED',
      'STEP_FINISHED',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_END',
      'RUN_FINISHED',
    ]);
    expect(out[3]).toMatchObject({ subagentRunId: 'c1', result: 'child answer' });
    expect(out.at(-1)).toMatchObject({ threadId: 't1', runId: 'r1', result: 'after the child' });
  });

  it('turns a stream that fails before any event into RUN_STARTED then RUN_ERROR, and passes nothing on as an error', async () => {
    const out = await agUi(throwError(() => new TypeError('refused')));
    expect(out.map((e) => e.type)).toEqual(['RUN_STARTED', 'RUN_ERROR']);
    expect(out[1]).toMatchObject({ message: 'refused', code: 'TypeError' });
  });
});
