/**
 * Only a line typed after a question is shown answers it. Each question reads the input
 * only while it is asked; what was typed in between (a stray `y⏎`, an impatient second
 * Enter) waited in the input's buffer and answered the next question the moment it was
 * asked, whatever it asked (`rm -rf ~`); an `a⏎` granted "always".
 */
import { describe, expect, it } from 'vitest';
import { terminalApproval } from '../../src/adapters/terminal-approval.js';
import type { ApprovalDecision, ApprovalRequest } from '../../src/permission/approval.js';
import { fakeTerminal, live, turn } from './support/fake-terminal.js';

const request = (command: string): ApprovalRequest => ({
  runId: 'r1', sessionId: 's1', approvalId: `approval_${command}`, callId: 'c1', toolName: 'bash', args: { command }, reason: 'bash asks', agentName: 'main',
});

/** A terminal the test types into and reads, and a handler asking on it. */
function terminal() {
  const t = fakeTerminal();
  return { ...t, approve: terminalApproval({ input: t.input, output: t.output }) };
}

/** What `answer` settled to, or `waiting` after many turns of the event loop. */
async function after(answer: ApprovalDecision | Promise<ApprovalDecision>): Promise<ApprovalDecision | 'waiting'> {
  let settled: ApprovalDecision | 'waiting' = 'waiting';
  void Promise.resolve(answer).then((decision) => (settled = decision), () => undefined);
  for (let i = 0; i < 50; i += 1) await turn();
  return settled;
}

describe('terminalApproval: a line typed before a question answers nothing', () => {
  it.each([
    ['y', 'approve'],
    ['a', 'always'],
  ])('"%s⏎" typed between two questions does not answer the second', async (typed) => {
    const t = terminal();
    const first = t.approve(request('echo one'), live());
    await t.prompts(1);
    t.input.write('y\n');
    expect(await first).toEqual({ decision: 'approve' });
    t.input.write(`${typed}\n`); // while the run goes on, no question shown
    for (let i = 0; i < 10; i += 1) await turn();

    const second = t.approve(request('rm -rf ~'), live());
    await t.prompts(2);
    expect(t.text()).toContain('rm -rf ~');
    expect(await after(second)).toBe('waiting'); // the human has not answered it
    t.input.write('n\n');
    expect(await second).toEqual({ decision: 'reject' });
  });

  it('a line typed before the first question does not answer it', async () => {
    const t = terminal();
    t.input.write('y\n');
    const answer = t.approve(request('rm -rf ~'), live());
    await t.prompts(1);
    expect(await after(answer)).toBe('waiting');
    t.input.write('use ls\n');
    expect(await answer).toEqual({ decision: 'reject', comment: 'use ls' });
  });

  it('a line typed after the question is shown answers it, at once; a second one typed with it answers nothing after', async () => {
    // (a guard: so it was before the mend too)
    const t = terminal();
    const first = t.approve(request('echo one'), live());
    const second = t.approve(request('rm -rf ~'), live());
    await t.prompts(1);
    t.input.write('a\ny\n');
    expect(await after(first)).toEqual({ decision: 'always' });
    await t.prompts(2);
    expect(await after(second)).toBe('waiting');
    t.input.write('n\n');
    expect(await second).toEqual({ decision: 'reject' });
  });

  it('answers a pipe held before the questions were asked are no answers: the input then ends, and each fails (the engine rejects)', async () => {
    const t = terminal();
    t.input.end('y\ny\n');
    await expect(t.approve(request('echo one'), live())).rejects.toThrow('the terminal input closed before an answer');
    await expect(t.approve(request('echo two'), live())).rejects.toThrow('the terminal input closed before an answer');
    expect(t.text()).toBe(''); // nothing was asked
  });

  it('a run cancelled while what was typed ahead is dropped rejects without showing its question', async () => {
    const t = terminal();
    const controller = new AbortController();
    const answer = t.approve(request('echo hi'), { signal: controller.signal });
    await Promise.resolve();
    await Promise.resolve(); // the question is on its way
    controller.abort();
    expect(await answer).toEqual({ decision: 'reject', comment: 'the run was cancelled' });
    expect(t.text()).toBe('');
    expect(t.input.listenerCount('data')).toBe(0);
  });
});
