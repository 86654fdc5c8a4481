import { describe, expect, it } from 'vitest';
import type { HarnessEngineOptions } from '../../src/engine/engine-options.js';
import { testAgent, testAgentPrompt } from '../support/agent-turns.js';
import { multitaskArgs } from '../support/delegation-script.js';
import { offlineEnginePerTest, type OfflineEngine } from '../support/offline-engine.js';
import { scriptedSteps } from '../support/scripted-routes.js';

// `task` rules name an agent; a multitask must not be a way around them.
let offline: OfflineEngine | undefined;
const startOffline = offlineEnginePerTest();

async function multitaskResult(options: Partial<HarnessEngineOptions>): Promise<string> {
  const call = multitaskArgs([
    [1, 'alpha', 'do alpha', 'alpha part'],
    [2, 'beta', 'do beta', 'beta part'],
  ]);
  offline = await startOffline(
    {
      main: scriptedSteps({ toolCalls: [{ name: 'multitask', args: call }] }),
      '*': (turn) => ({ text: `${turn.agent} did it` }),
    },
    [testAgent('alpha'), testAgent('beta')],
    options,
  );
  const result = await offline.engine.call('go');
  return result.text;
}

describe('task rules inside multitask', () => {
  it('fails a denied entry with the rule, and keeps the other entries', async () => {
    const text = await multitaskResult({ permissionRules: [{ tool: 'task', action: 'deny', pattern: 'beta' }] });
    expect(text).toContain('<index>1</index><description>alpha part</description>');
    expect(text).toMatch(/<index>1<\/index>.*<result_status>success<\/result_status><result_content><!\[CDATA\[alpha did it\]\]>/);
    expect(text).toMatch(/<index>2<\/index>.*<result_status>failure<\/result_status><result_content><!\[CDATA\[ERROR: delegating to "beta" is denied: denied by rule/);
    const ranBeta = offline!.model.requests.some((r) => String(r.messages[0]?.content).startsWith(testAgentPrompt('beta')));
    expect(ranBeta).toBe(false);
  });

  it('fails closed an entry a rule would ask about, pointing at the task tool', async () => {
    const text = await multitaskResult({
      permissionRules: [{ tool: 'task', action: 'ask', pattern: 'alpha' }],
      approve: () => ({ decision: 'approve' }),
    });
    expect(text).toMatch(/<index>1<\/index>.*<result_status>failure<\/result_status>.*needs approval .*use the task tool for it/);
    expect(text).toMatch(/<index>2<\/index>.*<result_status>success<\/result_status>/);
  });
});
