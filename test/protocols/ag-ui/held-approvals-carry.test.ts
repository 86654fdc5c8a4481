/**
 * Approvals an AG-UI run hands on (shown as `HITLPending`, not waiting yet when it ended on a
 * frontend call) are taken back by the thread's next AG-UI run all at once: offered one by one,
 * the first found waiting ended that AG-UI run before the others were held, and they were asked
 * by no AG-UI run (the run then waited on them until its approval timeout).
 */
import { createServer, type Server } from 'node:http';
import type { Interrupt } from '@ag-ui/core';
import { describe, expect, it } from 'vitest';
import { AgUiMapper } from '../../../src/protocols/ag-ui/ag-ui-mapper.js';
import { streamAgUiRun } from '../../../src/protocols/ag-ui/ag-ui-stream.js';
import { FrontendCalls } from '../../../src/protocols/ag-ui/frontend-calls.js';
import type { AgUiRunState } from '../../../src/protocols/ag-ui/waiting-threads.js';
import { agUiServerPerTest } from '../../support/ag-ui-server-per-test.js';
import { createGate } from '../../support/deferred.js';

const agUi = agUiServerPerTest();

/** Streams one AG-UI run of `state` (what the handler does for a request) and reads it to its end. */
async function oneAgUiRun(engine: Parameters<typeof streamAgUiRun>[0], state: AgUiRunState): Promise<void> {
  const server: Server = createServer((_req, res) => streamAgUiRun(engine, state, { threadId: 't', runId: 'r' }, res, { onWait: () => undefined, keepAliveMs: 0 }));
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  try {
    const { port } = server.address() as { port: number };
    await (await fetch(`http://127.0.0.1:${port}/`)).text();
  } finally {
    server.close();
  }
}

/** A started run whose approvals `waiting` wait, and the thread state of an AG-UI run that handed on `carried`. */
async function parkedThread(waiting: readonly string[], carried: readonly string[]) {
  const gate = createGate();
  const { engine } = await agUi.serve({ main: async () => (await gate.promise, { text: 'done' }) });
  const run = engine.start('go');
  const stop = new AbortController();
  for (const [i, approvalId] of waiting.entries()) {
    void engine.runs.approvals.wait(run.runId, { approvalId, callId: `c${i}`, toolName: 'bash', agentName: 'main' }, stop.signal);
  }
  const held: Interrupt[] = carried.map((id) => ({ id, reason: 'tool_approval' }));
  const state: AgUiRunState = { run, mapper: new AgUiMapper(), calls: new FrontendCalls(), frontendTools: new Set(), after: 0, interrupts: new Set(), notes: [], held };
  const close = (): void => {
    stop.abort();
    run.cancel();
  };
  return { engine, state, close };
}

describe('approvals carried to the next AG-UI run', () => {
  it('asks about every carried approval that waits, in one interrupt', async () => {
    const { engine, state, close } = await parkedThread(['ax', 'ay'], ['ax', 'ay']);
    await oneAgUiRun(engine, state);
    expect([...state.interrupts].sort()).toEqual(['ax', 'ay']);
    expect(state.held).toEqual([]);
    close();
  });

  it('hands on again a carried approval that does not wait yet when another is asked', async () => {
    const { engine, state, close } = await parkedThread(['ax'], ['ax', 'ay']);
    await oneAgUiRun(engine, state);
    expect([...state.interrupts]).toEqual(['ax']);
    expect(state.held.map((interrupt) => interrupt.id)).toEqual(['ay']);
    close();
  });
});
