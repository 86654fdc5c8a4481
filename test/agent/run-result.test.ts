import { describe, expect, it } from 'vitest';
import { runResultOf } from '../../src/agent/run-result.js';
import { RunState } from '../../src/agent/run-state.js';

describe('a run\'s RunEnd and its result', () => {
  it('RunEnd has its fields in the order of the wire, with error only when abnormal', () => {
    const ok = new RunState('main', 's1', 'run_1');
    ok.text = 'done';
    expect(Object.keys(ok.end())).toEqual(['type', 'runId', 'agentName', 'text', 'abnormal', 'metrics', 'steps']);
    const failed = new RunState('main', 's1', 'run_2');
    expect(Object.keys(failed.end('boom'))).toEqual(['type', 'runId', 'agentName', 'text', 'abnormal', 'error', 'metrics', 'steps']);
    expect(failed.ended).toBe(true);
  });

  it('the result is the RunEnd without its type and agent, plus the session, in the same order', () => {
    const state = new RunState('main', 's1', 'run_1');
    state.text = 'done';
    state.addUsage({ promptTokens: 3, completionTokens: 2, totalTokens: 5 });
    const end = state.end();
    const result = runResultOf(end, 's1');
    expect(result).toStrictEqual({ runId: 'run_1', text: 'done', abnormal: false, metrics: end.metrics, steps: 0, sessionId: 's1' });
    expect(Object.keys(result)).toEqual(['runId', 'text', 'abnormal', 'metrics', 'steps', 'sessionId']);
    const failed = runResultOf(new RunState('main', 's2', 'run_2').end('boom'), 's2');
    expect(Object.keys(failed)).toEqual(['runId', 'text', 'abnormal', 'error', 'metrics', 'steps', 'sessionId']);
    expect(failed).toMatchObject({ abnormal: true, error: 'boom', sessionId: 's2' });
  });

  it('fields a RunEnd should not have (one parsed from another process) do not reach the result', () => {
    const end = { ...new RunState('main', 's1', 'run_1').end(), planted: 'x' };
    expect(runResultOf(end, 's1')).not.toHaveProperty('planted');
  });
});
