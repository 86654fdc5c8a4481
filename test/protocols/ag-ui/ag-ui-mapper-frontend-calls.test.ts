import { verifyEvents } from '@ag-ui/client';
import { EventType, type AGUIEvent } from '@ag-ui/core';
import fc from 'fast-check';
import { from, lastValueFrom, type Observable, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { AgUiMapper } from '../../../src/protocols/ag-ui/ag-ui-mapper.js';
import { runEnded, runStarted } from '../../../src/protocols/ag-ui/ag-ui-terminal.js';
import { eventsOf, mainRun } from '../run-scripts.js';

/**
 * The mapper with frontend tools: a main-run call of one is shown when it is released (its
 * tool started), never before; one that ends unreleased (refused: no call to run) only as a
 * `CUSTOM` `rxharness.ToolCallEnd`, never as a `TOOL_CALL_RESULT` of a call the client never
 * saw; a subagent's calls of a tool of the same name, and every other call, as before.
 * `@ag-ui/client`'s verifier accepts both shapes.
 */
const verify = verifyEvents(false) as unknown as (source: Observable<AGUIEvent>) => Observable<unknown>;
const verified = (events: readonly AGUIEvent[]): Promise<unknown[]> => lastValueFrom(verify(from(events)).pipe(toArray()));

const ids = { threadId: 't1', runId: 'run_main' };

describe('AgUiMapper with frontend tools', () => {
  it('shows a main-run frontend call at its release or, refused, only as a custom event, never before, in a sequence the AG-UI client accepts', async () => {
    await fc.assert(
      fc.asyncProperty(mainRun, fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }), async ({ plan }, releases) => {
        const mapper = new AgUiMapper(new Set(['read']));
        const out: AGUIEvent[] = [runStarted(ids)];
        const released = new Map<string, number>(); // call id: where its events were shown
        const unreleased: string[] = []; // the calls that ended without
        let n = 0;
        for (const event of eventsOf(plan, 'run_main', 'main')) {
          out.push(...mapper.map(event));
          if (event.type === 'ToolCallEnd' && event.toolName === 'read' && !released.has(event.callId)) unreleased.push(event.callId);
          // The tool of some calls starts and waits for the client: their events are shown now.
          if (event.type === 'ToolCallStart' && event.toolName === 'read' && releases[n++ % releases.length]) {
            const shown = mapper.release(event.callId);
            expect(shown.map((e) => e.type)).toEqual([EventType.TOOL_CALL_START, EventType.TOOL_CALL_ARGS, EventType.TOOL_CALL_END]);
            expect(mapper.release(event.callId)).toEqual([]);
            released.set(event.callId, out.length);
            out.push(...shown);
          }
          if (event.type === 'RunEnd' && event.runId === 'run_main') out.push(...mapper.closeOpen(false), runEnded(ids, event));
        }
        await verified(out);
        out.forEach((e, i) => {
          if (e.type !== EventType.TOOL_CALL_START || !/^call_\d+_\d+$/.test(e.toolCallId) || e.toolCallName !== 'read') return; // a subagent's ids are prefixed
          // a main-run frontend call is shown only where it was released
          expect(i).toBe(released.get(e.toolCallId));
        });
        // AG-UI ties a result to its call's TOOL_CALL_START: one without would be a tool message answering nothing the client has
        const started = new Set<string>();
        for (const e of out) {
          if (e.type === EventType.TOOL_CALL_START) started.add(e.toolCallId);
          if (e.type === EventType.TOOL_CALL_RESULT) expect(started.has(e.toolCallId)).toBe(true);
        }
        for (const callId of unreleased) {
          // one that ended unreleased: nothing a client could run, nor a result of a call it never saw; its end as a custom event
          expect(out.filter((e) => 'toolCallId' in e && e.toolCallId === callId)).toEqual([]);
          const ends = out.filter((e) => e.type === EventType.CUSTOM && e.name === 'rxharness.ToolCallEnd' && (e.value as { callId: string }).callId === callId);
          expect(ends).toHaveLength(1);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('shows every call at its step end when the request brought no frontend tools', () => {
    const mapper = new AgUiMapper();
    const out = mapper.map({ type: 'ReasonEnd', runId: 'r1', agentName: 'main', step: 1, text: '', toolCalls: [{ callId: 'call_0', name: 'read', args: {} }], durationMs: 1 });
    expect(out.map((e) => e.type)).toEqual([EventType.TOOL_CALL_START, EventType.TOOL_CALL_ARGS, EventType.TOOL_CALL_END]);
    expect(mapper.release('call_0')).toEqual([]);
  });
});
