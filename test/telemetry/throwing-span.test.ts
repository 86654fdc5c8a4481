import { trace, type Span, type Tracer, type TracerProvider } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import type { Tool } from '../../src/tools/tool.js';
import { record } from '../support/collect-events.js';

/**
 * An application's tracer (not the official SDK) whose spans throw from every method:
 * `isRecording`, `spanContext`, `end`... Telemetry never breaks a run, so the run goes on.
 */

const broken = new Proxy({}, { get: () => () => { throw new Error('span broke'); } }) as Span;
const tracer = { startSpan: () => broken, startActiveSpan: () => { throw new Error('tracer broke'); } } as unknown as Tracer;
const provider: TracerProvider = { getTracer: () => tracer };
beforeAll(() => void trace.setGlobalTracerProvider(provider));
afterAll(() => trace.disable());

const probe: Tool = { name: 'probe', description: 'Looks.', parameters: { type: 'object' }, execute: () => 'seen' };

describe('a tracer whose spans throw from every method', () => {
  it('the run ends normally and its tool ran', async () => {
    const model = new ScriptedModel([{ toolCalls: [{ id: 'c1', name: 'probe', args: {} }] }, { text: 'done' }]);
    const run = record(new ReActAgent({ model, tools: [probe] }).stream('go'));
    await run.done;
    expect(run.error).toBeUndefined();
    expect(run.events.find((e) => e.type === 'ToolCallEnd')).toMatchObject({ text: 'seen' });
    expect(run.events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'done' });
  });
});
