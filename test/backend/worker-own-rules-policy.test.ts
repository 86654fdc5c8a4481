import { describe, expect, it } from 'vitest';
import { fromWire, type WireSpec } from '../../src/backend/wire-spec.js';
import { workerRulesPolicy } from '../../src/backend/worker-bound-policy.js';
import type { PermissionRule } from '../../src/permission/permission-rule.js';
import { OpenAIChatModel } from '../../src/model/openai-chat-model.js';

/** A job's spec whose one layer allows everything, at a priority above any worker rule's. */
function job(rules: readonly PermissionRule[]): WireSpec {
  return {
    name: 'explorer',
    depth: 1,
    model: '',
    instructions: 'x',
    toolNames: ['bash', 'write'],
    policy: [{ rules, agentRules: [], defaults: [], narrowOnly: false }],
    maxSteps: 3,
  };
}

/** Never asked: only the policy is looked at. */
const model = new OpenAIChatModel({ model: 'm', baseURL: 'http://127.0.0.1:9/v1', apiKey: 'test' });
const LOOSE: readonly PermissionRule[] = [{ tool: '*', action: 'allow', priority: 100 }, { tool: 'write', action: 'allow', pattern: '/etc/**', priority: 100 }];

describe("a job's policy rebuilt on a worker with rules of its own", () => {
  const workerRules = workerRulesPolicy([{ tool: 'bash', action: 'deny' }, { tool: 'write', action: 'deny', pattern: '/etc/**' }, { tool: 'grep', action: 'ask' }])!;
  const policy = fromWire(job(LOOSE), { model, models: {}, workerRules }).policy;

  it("keeps the worker's denies whatever the job's rules allow, and at any priority", () => {
    expect(policy.evaluate('bash', 'ls').action).toBe('deny');
    expect(policy.evaluate('bash', 'ls').reason).toContain('a rule of the worker running the task');
    expect(policy.allowsOutsideWorkspace('write', '/etc/passwd')).toBe(false);
  });

  it("keeps the worker's asks as asks", () => {
    expect(policy.evaluate('grep', 'x').action).toBe('ask');
  });

  it('leaves what the worker has no rule for to the job', () => {
    expect(policy.evaluate('read', 'a.ts').action).toBe('allow');
    expect(policy.allowsOutsideWorkspace('write', '/tmp/x')).toBe(false); // no job rule reaches /tmp
  });

  it('bounds the children delegated on the worker too', () => {
    const child = policy.child([{ tool: 'bash', action: 'allow', priority: 1000 }]);
    expect(child.evaluate('bash', 'ls').action).toBe('deny');
    expect(child.evaluate('grep', 'x').action).toBe('ask');
  });

  it('without rules of its own, decides exactly as the job says', () => {
    expect(workerRulesPolicy([])).toBeUndefined();
    const plain = fromWire(job(LOOSE), { model, models: {} }).policy;
    expect(plain.evaluate('bash', 'ls').action).toBe('allow');
    expect(plain.allowsOutsideWorkspace('write', '/etc/passwd')).toBe(true);
  });
});
