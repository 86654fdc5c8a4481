/**
 * A planted session file full of entries that are no chat messages: the run says so in one
 * `session-entry-skipped` Warning per load (naming the count and the first few entries),
 * not one per entry, which would flood every consumer on every run of the session. (A
 * planted file is not loaded at all unless the user trusts it, `trustUnsealed`: see
 * file-session-sealed-history.test.ts; trusted here, its entries reach the run's check.)
 */
import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { collect } from '../support/collect-events.js';
import { makeWorkspace, type TestWorkspace } from '../support/tool-context.js';

let ws: TestWorkspace;
beforeEach(async () => {
  ws = await makeWorkspace();
});
afterEach(() => ws.cleanup());

const BAD = 10_000;

describe('a session file with many malformed entries', () => {
  it('gives one session-entry-skipped Warning per load, with the count and the first entries', async () => {
    const sessions = new FileSessionStore(ws.dir, { home: ws.home, trustUnsealed: ['s'] });
    await sessions.append('s', [{ role: 'user', content: 'kept' }, { role: 'assistant', content: 'ok' }]);
    const planted = Array.from({ length: BAD }, (_, i) => JSON.stringify({ role: 'wizard', content: `spell ${i}` })).join('\n');
    await appendFile(join(ws.dir, '.rxharness', 'sessions', 's.jsonl'), `${planted}\n`);

    const model = new ScriptedModel(() => ({ text: 'fine' }));
    const agent = new ReActAgent({ model, sessions });
    for (const prompt of ['one', 'two']) {
      const events: AgentEvent[] = await collect(agent.stream(prompt, { sessionId: 's' }));
      const skipped = events.filter((e) => e.type === 'Warning' && e.code === 'session-entry-skipped');
      expect(skipped).toHaveLength(1);
      const message = skipped[0]!.type === 'Warning' ? skipped[0]!.message : '';
      expect(message).toContain(`Skipped ${BAD} stored messages of session "s"`);
      expect(message).toContain('entry 3 has an unknown role "wizard"');
      expect(message).toContain('entry 5 ');
      expect(message).not.toContain('entry 6 ');
      expect(message.length).toBeLessThan(1000);
      expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'fine' });
    }
    expect(model.requests[0]!.messages).toEqual([
      { role: 'user', content: 'kept' },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: 'one' },
    ]);
  });
});
