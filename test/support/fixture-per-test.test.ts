import { describe, expect, it } from 'vitest';
import type { HarnessEngine } from '../../src/engine/harness-engine.js';
import { testAgent } from './agent-turns.js';
import type { DelegationFixture } from './delegation-fixture.js';
import { steps, taskReply } from './delegation-script.js';
import { delegationFixturePerTest } from './fixture-per-test.js';

// The example of CONTRIBUTING.md ("Scripting the model"), and what the helper promises: what
// one test started is closed before the next test runs.

const startFixture = delegationFixturePerTest();
let previous: { fixture: DelegationFixture; engine: HarnessEngine } | undefined;

describe('delegationFixturePerTest', () => {
  it('scripts a main agent and its child by route (the CONTRIBUTING.md example)', async () => {
    const f = await startFixture({
      main: steps(taskReply('explorer', 'look around')),
      explorer: (turn) => ({ text: `saw: ${turn.prompt}` }),
    });
    const engine = f.engine({}, [testAgent('explorer')]);
    expect((await engine.call('go')).text).toContain('saw: look around');
    expect(f.requestsOf('explorer')).toHaveLength(1);
    previous = { fixture: f, engine };
  });

  it('closed the previous test\'s engine and fake server after it', () => {
    expect(previous).toBeDefined();
    expect(() => previous!.engine.start('again')).toThrow(/closed/i);
    expect(previous!.fixture.server.listening).toBe(false);
  });
});
