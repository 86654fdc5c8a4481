import { afterEach, describe, expect, it } from 'vitest';
import { defineAgent } from '../../src/subagent/define-agent.js';
import { formatAgentMarkdown } from '../../src/subagent/format-agent-markdown.js';
import { parseAgentMarkdown } from '../../src/subagent/parse-agent-markdown.js';
import { testAgent } from '../support/agent-turns.js';
import { collect } from '../support/collect-events.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { steps, taskReply } from '../support/delegation-script.js';

const file = (front: string) => `---\nname: tuned\ndescription: Tuned.\n${front}\n---\nYou are tuned.\n`;
const origin = { source: 'workspace' as const, file: '/w/.rxharness/agents/tuned.md' };

describe('model settings in definitions', () => {
  it('front matter takes temperature, top_p, max_tokens, tool_choice, parallel_tool_calls', () => {
    const d = parseAgentMarkdown(file('temperature: 0.3\ntop_p: 0.8\nmax_tokens: 400\ntool_choice: required\nparallel_tool_calls: false'), origin);
    expect(d.settings).toEqual({ temperature: 0.3, topP: 0.8, maxTokens: 400, toolChoice: 'required', parallelToolCalls: false });
    expect(d.extra).toEqual({});
    // Written back and read again: the same settings.
    expect(parseAgentMarkdown(formatAgentMarkdown(d), origin).settings).toEqual(d.settings);
  });

  it('a bad value names the key as the file spells it', () => {
    expect(() => parseAgentMarkdown(file('top_p: 7'), origin)).toThrow(/top_p must be a number from 0 to 1, got 7/);
    expect(() => parseAgentMarkdown(file('max_tokens: lots'), origin)).toThrow(/max_tokens must be a whole number/);
  });

  it('defineAgent takes a camelCase settings object', () => {
    const d = defineAgent({ name: 'a', description: 'A.', systemPrompt: 'x', settings: { maxTokens: 50 } });
    expect(d.settings).toEqual({ maxTokens: 50 });
    expect(() => defineAgent({ name: 'a', description: 'A.', systemPrompt: 'x', settings: { maxTokens: 0 } })).toThrow(/"settings": maxTokens must be a whole number/);
  });
});

describe('a child\'s settings apply to the child only', () => {
  let f: DelegationFixture;
  afterEach(() => f.close());

  it('the child sends its own max_tokens; the parent and a plain sibling send none', async () => {
    f = await startDelegationFixture({ main: steps(taskReply('tuned', 'go'), taskReply('plain', 'go')), '*': () => ({ text: 'ok' }) });
    const engine = f.engine({}, [testAgent('tuned', { settings: { maxTokens: 123, temperature: 0 } }), testAgent('plain')]);
    await collect(engine.stream('start'));
    expect(f.requestsOf('tuned')[0]!.body).toMatchObject({ max_tokens: 123, temperature: 0 });
    for (const other of [...f.requestsOf('main'), ...f.requestsOf('plain')]) {
      expect(other.body).not.toHaveProperty('max_tokens');
      expect(other.body).not.toHaveProperty('temperature');
    }
  });
});
