/**
 * A conversation's waiting background results go in front of its next prompt, and are taken
 * from the tracker to do so. When that prompt cannot be saved (a disk error, a planted link
 * the file store refuses), the run fails: the results it took must wait for the next turn,
 * not vanish.
 */
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/model/chat-message.js';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';
import type { SessionStore } from '../../src/session/session-store.js';
import { testAgent } from '../support/agent-turns.js';
import { startDelegationFixture } from '../support/delegation-fixture.js';
import { taskArgs } from '../support/delegation-script.js';

/** A store in memory whose next append of the conversation fails (throws, or rejects) once it is armed. */
class FailingOnceStore extends MemorySessionStore implements SessionStore {
  armed = false;

  constructor(private readonly rejects: boolean) {
    super();
  }

  override append(sessionId: string, messages: readonly ChatMessage[]): void | Promise<void> {
    if (this.armed && sessionId === 's') {
      this.armed = false;
      const error = new Error('EIO: i/o error, write');
      if (this.rejects) return Promise.reject(error);
      throw error;
    }
    super.append(sessionId, messages);
  }
}

describe('background results and a prompt that cannot be saved', () => {
  it.each([
    ['throws', false],
    ['rejects', true],
  ])("wait for the conversation's next turn (the store %s)", { timeout: 30_000 }, async (_, rejects) => {
    const fixture = await startDelegationFixture({
      main: (turn) =>
        turn.step === 1 && turn.prompt === 'start it'
          ? { toolCalls: [{ name: 'task', arguments: { ...taskArgs('digger', 'dig', 'bg dig'), background: true } }] }
          : { text: 'ok' },
      digger: () => ({ text: 'found the treasure' }),
    });
    const sessions = new FailingOnceStore(rejects);
    const engine = fixture.engine({ sessions }, [testAgent('digger')]);
    try {
      await engine.call('start it', { sessionId: 's' });
      const [task] = engine.tasks.list('s');
      await engine.tasks.whenSettled(task!.taskId);

      sessions.armed = true;
      const failed = await engine.call('what came back?', { sessionId: 's' });
      expect(failed.error).toContain('EIO');

      await engine.call('and now?', { sessionId: 's' });
      const prompt = JSON.stringify(fixture.requestsOf('main').at(-1)!.body.messages?.at(-1));
      expect(prompt).toContain('found the treasure');
      expect(prompt).toContain(task!.taskId);
      // Delivered once: the turn after has it only in its history.
      await engine.call('anything else?', { sessionId: 's' });
      const after = fixture.requestsOf('main').at(-1)!;
      expect(JSON.stringify(after.body.messages?.at(-1))).not.toContain('found the treasure');
    } finally {
      await engine.close();
      await fixture.close();
    }
  });
});
