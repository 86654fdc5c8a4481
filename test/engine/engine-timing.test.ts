import { describe, expect, it } from 'vitest';
import { toAsyncIterable } from '../../src/adapters/async-iterable.js';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { makeWorkspace } from '../support/tool-context.js';

describe('when a run of the main agent goes on', () => {
  it('on a synchronous model: RunStart during subscribe, the rest a microtask later', async () => {
    const ws = await makeWorkspace();
    try {
      const engine = new HarnessEngine({ model: new ScriptedModel(() => ({ text: 'done' })), workspace: ws.dir, homeDir: ws.dir });
      const seen: AgentEvent['type'][] = [];
      engine.stream('go').subscribe((e) => seen.push(e.type));
      expect(seen).toEqual(['RunStart']);
      await Promise.resolve();
      await Promise.resolve();
      expect(seen.at(-1)).toBe('RunEnd');

      // So an async iterator with a small buffer hands out the first event before it overflows.
      const events = toAsyncIterable(engine.stream('go'), { bufferSize: 2 });
      expect((await events.next()).value).toMatchObject({ type: 'RunStart' });
      await new Promise((resolve) => setImmediate(resolve)); // the run has ended, unread
      await expect(events.next()).rejects.toThrow(/More than 2 events were waiting/);
    } finally {
      await ws.cleanup();
    }
  });
});
