import { afterEach, describe, expect, it } from 'vitest';
import { testAgent } from '../support/agent-turns.js';
import { own, record } from '../support/collect-events.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { steps } from '../support/delegation-script.js';

let f: DelegationFixture | undefined;
afterEach(async () => {
  await f?.close();
  f = undefined;
});

const item = (prompt: string, index?: number) => ({ ...(index === undefined ? {} : { index }), agent_name: 'alpha', prompt, description: `do ${prompt}` });

describe('multitask: some tasks with an index and some without', () => {
  for (const [name, tasks] of [
    ['an index clashing with a place in the list', [item('p1', 2), item('p2')]],
    ['an index that would not clash', [item('p1', 1), item('p2')]],
  ] as const) {
    it(`${name}: refused before any task runs, telling the model to give every task an index or none (no duplicate it never wrote)`, async () => {
      f = await startDelegationFixture({ main: steps({ toolCalls: [{ name: 'multitask', arguments: { tasks } }] }), alpha: (t) => ({ text: `done ${t.prompt}` }) });
      const run = record(f.engine({}, [testAgent('alpha')]).stream('go'));
      await run.done;
      const end = own(run.events, 'ToolCallEnd')[0]!;
      expect(end.error).toBeDefined();
      expect(end.text).toMatch(/^ERROR: multitask refused: 1 of the 2 tasks give an index and the others do not; give every task its own index from 1, or leave every index out\./);
      expect(end.text).not.toContain('used twice');
      expect(f.requestsOf('alpha')).toHaveLength(0);
    });
  }
});
