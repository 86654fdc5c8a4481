import { describe, expect, it } from 'vitest';
import { parseAnswer, question, terminalApproval } from '../../src/adapters/terminal-approval.js';
import type { ApprovalRequest } from '../../src/permission/approval.js';
import { fakeTerminal, live } from './support/fake-terminal.js';

const request = (command: string, extra: Partial<ApprovalRequest> = {}): ApprovalRequest => ({
  runId: 'r1',
  sessionId: 's1',
  approvalId: 'approval_1',
  callId: 'c1',
  toolName: 'bash',
  args: { command },
  reason: 'bash commands ask for approval',
  agentName: 'main',
  ...extra,
});

describe('parseAnswer', () => {
  it.each([
    ['y', { decision: 'approve' }],
    [' YES ', { decision: 'approve' }],
    ['a', { decision: 'always' }],
    ['Always', { decision: 'always' }],
    ['', { decision: 'reject' }],
    ['n', { decision: 'reject' }],
    ['no', { decision: 'reject' }],
    ['  use git status instead ', { decision: 'reject', comment: 'use git status instead' }],
  ])('%j → %j', (text, decision) => {
    expect(parseAnswer(text)).toEqual(decision);
  });
});

describe('terminalApproval', () => {
  it('asks with who, the whole command and why, and answers what was typed', async () => {
    const t = fakeTerminal();
    const approve = terminalApproval(t);
    const long = `npm test -- ${'x'.repeat(120)}`;
    const answer = approve(request(long, { agentName: 'explore', taskId: 'task_1' }), live());
    await t.prompts(1);
    expect(t.text()).toBe(`${question(request(long, { agentName: 'explore', taskId: 'task_1' }))}[y]es / [a]lways / [n]o, or say what to do instead: `);
    expect(t.text()).toContain(`? explore (task task_1) wants to run bash\n  ${long}\n  (bash commands ask for approval)\n`);
    t.input.write('use ls\n');
    expect(await answer).toEqual({ decision: 'reject', comment: 'use ls' });
  });

  it('names a task as the live tree does (agent#index description), not by its id', () => {
    const asked = question(request('npm test', { agentName: 'bash', taskId: 'task_9f3', taskLabel: 'bash#1 run a command' }));
    expect(asked).toContain('? bash#1 run a command wants to run bash\n');
    expect(asked).not.toContain('task_9f3');
  });

  it('asks one question at a time: the second waits for the first answer', async () => {
    const t = fakeTerminal();
    const approve = terminalApproval(t);
    const first = approve(request('echo one'), live());
    const second = approve(request('echo two'), live());
    await t.prompts(1);
    expect(t.text()).toContain('echo one');
    expect(t.text()).not.toContain('echo two');
    t.input.write('y\n');
    expect(await first).toEqual({ decision: 'approve' });
    await t.prompts(2);
    expect(t.text()).toContain('echo two');
    t.input.write('a\n');
    expect(await second).toEqual({ decision: 'always' });
  });

  it('a cancelled run withdraws its question and rejects; the next question still gets its answer', async () => {
    const t = fakeTerminal();
    const approve = terminalApproval(t);
    const controller = new AbortController();
    const cancelled = approve(request('sleep 100'), { signal: controller.signal });
    await t.prompts(1);
    controller.abort();
    expect(await cancelled).toEqual({ decision: 'reject', comment: 'the run was cancelled' });
    expect(t.input.listenerCount('data')).toBe(0); // the question's reader is gone
    const next = approve(request('echo next'), live());
    await t.prompts(2);
    t.input.write('y\n');
    expect(await next).toEqual({ decision: 'approve' });
    expect(await approve(request('never asked'), { signal: AbortSignal.abort() })).toEqual({ decision: 'reject', comment: 'the run was cancelled' });
  });

  it('fails when the input ends without an answer (the engine then rejects, fail-closed)', async () => {
    const t = fakeTerminal();
    const answer = terminalApproval(t)(request('echo hi'), live());
    await t.prompts(1);
    t.input.end();
    await expect(answer).rejects.toThrow('the terminal input closed before an answer');
    await expect(terminalApproval(t)(request('echo again'), live())).rejects.toThrow('the terminal input closed before an answer');
  });
});

describe('question: what will run, as it will run', () => {
  it('shows each line of a multi-line command on its own line', () => {
    expect(question(request('echo safe\nrm -rf ~'))).toBe(
      '\n? main wants to run bash (2 lines):\n  echo safe\n  rm -rf ~\n  (bash commands ask for approval)\n',
    );
  });

  it.each([
    ['a right-to-left override', 'echo "\u202Eht.exe"', 'echo "<U+202E>ht.exe"'],
    ['bidi isolates', 'ls \u2066a\u2069', 'ls <U+2066>a<U+2069>'],
    ['zero-width characters', 'r\u200Bm x\u200C\u200D\uFEFF\u2060', 'r<U+200B>m x<U+200C><U+200D><U+FEFF><U+2060>'],
    ['a carriage return that would redraw the line', 'rm -rf ~\recho hello', 'rm -rf ~<U+000D>echo hello'],
    ['an escape sequence', 'echo \u001b[2Khidden', 'echo <U+001B>[2Khidden'],
    ['a tab and a no-break space', 'rm\t-rf\u00A0x', 'rm<U+0009>-rf<U+00A0>x'],
  ])('marks %s', (_name, command, shown) => {
    expect(question(request(command))).toBe(`\n? main wants to run bash\n  ${shown}\n  (bash commands ask for approval)\n`);
  });

  it('marks invisible characters in the reason too', () => {
    expect(question(request('ls', { reason: 'denied (for "a\u202Eb")' }))).toContain('(denied (for "a<U+202E>b"))');
  });
});

describe('question: every argument is shown, not only the path (issue 22.6)', () => {
  const write = (content: string): ApprovalRequest => ({ ...request(''), toolName: 'write', args: { path: '.env', content }, reason: 'write asks for approval by default for ".env"' });

  it('a write of .env shows the content it would write', () => {
    expect(question(write('API_KEY=attacker\nDEBUG=1'))).toBe(
      '\n? main wants to run write\n  .env\n  content (2 lines):\n    API_KEY=attacker\n    DEBUG=1\n  (write asks for approval by default for ".env")\n',
    );
  });

  it("an MCP tool shows each of its arguments, marked like a command", () => {
    const mcp = { ...request(''), toolName: 'mcp__fs__move_file', args: { source: 'notes.txt', destination: '../\u202Eout', overwrite: true, options: { mode: 'fast' } } };
    expect(question(mcp)).toBe(
      '\n? main wants to run mcp__fs__move_file:\n  source: notes.txt\n  destination: ../<U+202E>out\n  overwrite: true\n' +
        '  options (3 lines):\n    {\n      "mode": "fast"\n    }\n  (bash commands ask for approval)\n',
    );
  });

  it('a long argument is folded to its start with its size; "s" shows all of it, then the question is asked again', async () => {
    const lines = Array.from({ length: 40 }, (_, i) => `LINE_${i + 1}=value`);
    const content = lines.join('\n');
    const t = fakeTerminal();
    const answer = terminalApproval(t)(write(content), live());
    await t.prompts(1);
    expect(t.text()).toContain(`  content (40 lines, ${content.length} characters; the start shown, "s" shows all):\n    LINE_1=value\n`);
    expect(t.text()).toContain('    LINE_12=value\n');
    expect(t.text()).not.toContain('LINE_13=');
    expect(t.text().endsWith('[y]es / [a]lways / [n]o / [s]how all, or say what to do instead: ')).toBe(true);
    t.input.write('s\n');
    await t.prompts(2);
    expect(t.text()).toContain(`  content (40 lines):\n${lines.map((l) => `    ${l}\n`).join('')}`);
    t.input.write('n\n');
    expect(await answer).toEqual({ decision: 'reject' });
  });

  it('a single very long line is folded too', () => {
    const asked = question(write(`TOKEN=${'x'.repeat(1000)}`));
    expect(asked).toContain(`  content (1 line, 1006 characters; the start shown, "s" shows all):\n    TOKEN=${'x'.repeat(294)}…\n`);
    expect(question(write(`TOKEN=${'x'.repeat(1000)}`), true)).toContain(`  content: TOKEN=${'x'.repeat(1000)}\n`);
  });
});
