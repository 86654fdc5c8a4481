import { afterEach, describe, expect, it } from 'vitest';
import { testAgent, testAgentPrompt } from '../support/agent-turns.js';
import { collect, own } from '../support/collect-events.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { steps, taskReply } from '../support/delegation-script.js';

let f: DelegationFixture;
afterEach(() => f.close());

describe('a child run', () => {
  it('sends only its own system prompt and the task prompt, nothing of the parent', async () => {
    f = await startDelegationFixture({
      main: (turn) =>
        turn.prompt === 'PARENT-EARLIER-TURN'
          ? { text: 'PARENT-EARLIER-ANSWER' }
          : steps(taskReply('alpha', 'first job'), { text: 'PARENT-THINKS-ALOUD', ...taskReply('alpha', 'second job') })(turn),
      alpha: (turn) => ({ text: `did ${turn.prompt}` }),
    });
    const engine = f.engine({}, [testAgent('alpha')]);
    await engine.call('PARENT-EARLIER-TURN', { sessionId: 'conversation' });
    await collect(engine.stream('PARENT-SECRET-PROMPT', { sessionId: 'conversation' }));

    // The parent did have a history, so leaving it out is a real choice.
    expect(f.requestsOf('main').at(-1)!.rawBody).toContain('PARENT-EARLIER-ANSWER');
    const children = f.requestsOf('alpha');
    expect(children).toHaveLength(2);
    for (const [i, request] of children.entries()) {
      const messages = request.body.messages ?? [];
      expect(messages.map((m) => m.role)).toEqual(['system', 'user']);
      expect(messages[1]!.content).toBe(i === 0 ? 'first job' : 'second job');
      const system = messages[0]!.content as string;
      expect(system.startsWith(`${testAgentPrompt('alpha')}\n\n# Environment`)).toBe(true);
      expect(system).toContain(`Workspace: ${f.workspace.dir}`);
      // Nothing of the parent: its prompts, answers, role prompt, or the first task.
      for (const secret of ['PARENT-SECRET-PROMPT', 'PARENT-EARLIER', 'PARENT-THINKS-ALOUD', 'main agent', 'task_result']) {
        expect(request.rawBody).not.toContain(secret);
      }
    }
  });

  it('starts a fresh session per task even for the same agent', async () => {
    f = await startDelegationFixture({
      main: steps(taskReply('alpha', 'one'), taskReply('alpha', 'two')),
      alpha: (turn) => ({ text: `did ${turn.prompt}` }),
    });
    const events = await collect(f.engine({}, [testAgent('alpha')]).stream('go'));
    const starts = events.flatMap((e) => (e.type === 'TaskWrap' && e.event.type === 'RunStart' ? [e.event] : []));
    expect(starts).toHaveLength(2);
    expect(starts[0]!.sessionId).not.toBe(starts[1]!.sessionId);
    expect(f.requestsOf('alpha')[1]!.rawBody).not.toContain('did one');
    expect(own(events, 'RunEnd')[0]!.text).toContain('did two');
  });
});
