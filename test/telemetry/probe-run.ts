import { expect } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import type { Tool } from '../../src/tools/tool.js';
import { record } from '../support/collect-events.js';

/** A tool that answers `seen`: one call makes a run of two requests and one tool span. */
export const probe: Tool = { name: 'probe', description: 'Looks.', parameters: { type: 'object' }, execute: () => 'seen' };

/**
 * Runs an agent that calls {@link probe} once and answers `done`, and checks what a tracer's
 * or exporter's trouble must not change: no error, the tool ran, the run ended normally.
 */
export async function expectProbeRunEndsNormally(): Promise<void> {
  const model = new ScriptedModel([{ toolCalls: [{ id: 'c1', name: 'probe', args: {} }] }, { text: 'done' }]);
  const run = record(new ReActAgent({ model, tools: [probe] }).stream('go'));
  await run.done;
  expect(run.error).toBeUndefined();
  expect(run.events.find((e) => e.type === 'ToolCallEnd')).toMatchObject({ text: 'seen' });
  expect(run.events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'done' });
}
