import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { plainLine } from '../../src/adapters/index.js';
import { unwrapEvent, type AgentEvent } from '../../src/events/index.js';
import { call, FixtureRun } from './fixtures.js';

const main = new FixtureRun('m', 'main');
const task = main.task({ taskId: 't', agentName: 'bash', description: 'Clean up', multitask: true, taskIndex: 2 });

describe('plainLine for an approval', () => {
  it('shows the call and the reason with every invisible character marked, as the question does', () => {
    // what runs is `rm -rf ~` behind a zero-width space; the reason hides a right-to-left override
    const rm = call('c1', 'bash', { command: 'echo safe\nrm -rf ~\u200B' });
    expect(plainLine(task.approvalPending(rm, 'bash asks \u202Efor approval'))).toBe(
      '[bash#2] approval needed for bash echo safe ⏎ rm -rf ~<U+200B>: bash asks <U+202E>for approval',
    );
  });

  it('marks a tool name the model made up, wherever the name is shown', () => {
    const odd = call('c2', 'ba\u001b[2Jsh', { command: 'ls' });
    expect(plainLine(main.approvalPending(odd, 'unknown tools ask'))).toBe('[main] approval needed for ba<U+001B>[2Jsh ls: unknown tools ask');
    expect(plainLine(main.toolStart(1, odd))).toBe('[main] tool ba<U+001B>[2Jsh ls started');
    expect(plainLine(main.toolEnd(1, odd, 'no such tool', 'unknown tool'))).toBe('[main] tool ba<U+001B>[2Jsh failed: unknown tool');
    expect(plainLine(main.approvalDecided(odd, 'reject'))).toBe('[main] ba<U+001B>[2Jsh rejected');
  });

  it('cuts a 100,000-character tool name the model made up to 64 columns, wherever the name is shown', () => {
    const huge = call('c4', `x${'y'.repeat(99_999)}`, { command: 'ls' });
    const lines = [main.toolStart(1, huge), main.toolEnd(1, huge, 'no such tool', 'unknown tool'), main.approvalDecided(huge, 'reject')].map((e) => plainLine(e)!);
    for (const line of lines) {
      expect(line).toContain(`x${'y'.repeat(62)}…`);
      expect(line.length).toBeLessThan(120);
    }
  });

  it('cuts a long command at 120 columns with a visible …, counting wide characters as two', () => {
    const long = call('c3', 'bash', { command: `echo ${'✅'.repeat(100)}` });
    const line = plainLine(main.approvalPending(long, 'bash asks'))!;
    const shown = line.slice('[main] approval needed for bash '.length, -': bash asks'.length);
    expect(shown).toBe(`echo ${'✅'.repeat(57)}…`);
    expect(stringWidth(shown)).toBe(120);
  });
});

describe('plainLine for other events', () => {
  it('writes nothing for a delta, however deeply wrapped', () => {
    const inner = task.task({ taskId: 'u', agentName: 'explore', description: 'Look' });
    const deltas = [...main.reason(1, 'hello'), ...inner.reason(1, 'hello')].filter((e) => unwrapEvent(e).event.type === 'ReasonDelta');
    expect(deltas).toHaveLength(2);
    expect(deltas.map(plainLine)).toEqual([undefined, undefined]);
  });

  it('cuts a long detail with a visible …', () => {
    const line = plainLine(main.toolEnd(1, call('c4', 'read', { path: 'a' }), '', `${'中'.repeat(100)} end`))!;
    expect(line).toBe(`[main] tool read failed: ${'中'.repeat(59)}…`);
  });
});

describe('plainLine cleans every field it writes', () => {
  it('a warning\'s code and a compaction\'s reason lose their escape sequences and control characters', () => {
    const warning = { type: 'Warning', runId: 'm', agentName: 'main', code: '\x1b]52;c;ZWNobw==\x07bad\rcode\x9b2A', message: 'm' } as const;
    expect(plainLine(warning)).toBe('[main] warning (badcode): m');
    const compaction = {
      type: 'Compaction', runId: 'm', agentName: 'main', sessionId: 's', reason: '\x1b[2Jmanual\x07', contextWindow: 10, tokensBefore: 9, tokensAfter: 5,
      prunedToolResults: 1, summarisedMessages: 0, archived: false,
    } as unknown as AgentEvent;
    expect(plainLine(compaction)).toBe('[main] context compacted (manual): 9 → 5 tokens of 10 (1 tool output(s) pruned, 0 message(s) summarised)');
  });
});
