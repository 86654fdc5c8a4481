import { afterEach, describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { collect } from '../support/collect-events.js';
import { useInMemoryTracing } from '../support/in-memory-tracing.js';

/**
 * A span's name is cut as its attributes are: an agent's name and a model's id come from a
 * definition file (a cloned repository's `.rxharness/agents/`), with no length limit, and a
 * span's name is exported whole with every span, every run.
 */

const exporter = useInMemoryTracing();
afterEach(() => exporter.reset());

describe('span names of a long agent name and a long model id', () => {
  it('are cut at 128 characters each, with an ellipsis', async () => {
    const name = 'a'.repeat(100_000);
    const model = new ScriptedModel([{ text: 'done' }], { id: `m${'x'.repeat(100_000)}` });
    const events = await collect(new ReActAgent({ name, model }).stream('go'));
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false });
    const names = exporter.getFinishedSpans().map((s) => s.name);
    expect(names).toEqual([`chat m${'x'.repeat(127)}…`, `invoke_agent ${'a'.repeat(128)}…`]);
  });
});
