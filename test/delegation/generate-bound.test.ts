import { describe, expect, it } from 'vitest';
import { MAX_GENERATED_AGENTS } from '../../src/delegation/generate-tool.js';
import { collect, own } from '../support/collect-events.js';
import { offlineEnginePerTest } from '../support/offline-engine.js';
import { scriptedSteps } from '../support/scripted-routes.js';

const offline = offlineEnginePerTest();

const generate = (name: string) => ({ name: 'generate', args: { name, description: `Agent ${name}.`, system_prompt: `You are ${name}.` } });
const BOUND = `this engine already has the ${MAX_GENERATED_AGENTS} generated agents it allows, so no agent was created`;

describe('the bound on agents generate registers in one engine', () => {
  it(`registers at most ${MAX_GENERATED_AGENTS}; beyond it, in any conversation, an error result says so, and refused calls take no place`, async () => {
    const names = Array.from({ length: MAX_GENERATED_AGENTS + 2 }, (_, i) => `gen_${i}`);
    // Two invalid names first: refusals of their own, which must not use up the bound.
    const calls = [generate('bad name'), generate('bad/name'), ...names.map(generate)];
    const o = await offline({ main: (turn) => (turn.prompt === 'more' ? scriptedSteps({ toolCalls: [generate('late')] })(turn) : scriptedSteps({ toolCalls: calls }, { text: 'made' })(turn)) }, []);
    const builtIn = o.engine.agents.list().length;

    const events = await collect(o.engine.stream('make agents', { sessionId: 'a' }));
    const ends = own(events, 'ToolCallEnd');
    expect(ends).toHaveLength(calls.length);
    expect(ends.filter((e) => e.error === undefined)).toHaveLength(MAX_GENERATED_AGENTS);
    expect(ends.slice(2 + MAX_GENERATED_AGENTS).map((e) => e.error)).toEqual([expect.stringContaining(BOUND), expect.stringContaining(BOUND)]);
    expect(o.engine.agents.list()).toHaveLength(builtIn + MAX_GENERATED_AGENTS);
    expect(o.engine.agents.get(names.at(-1)!)).toBeUndefined();
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'made' });

    // Engine-wide: another conversation's model cannot add to the list either.
    const other = await collect(o.engine.stream('more', { sessionId: 'b' }));
    expect(own(other, 'ToolCallEnd')[0]!.error).toContain(BOUND);
    expect(o.engine.agents.get('late')).toBeUndefined();
  });
});
