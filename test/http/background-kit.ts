import { createGate, type Gate } from '../support/deferred.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { lifecycleTaskReply } from '../support/lifecycle-script.js';

/**
 * A delegation fixture for the `maxRuns` tests of background tasks: the prompt "leave" starts a
 * background `alpha` (which answers once `gate` opens) and then answers; "hang" holds its run
 * open; any other prompt answers at once.
 */
export async function backgroundLeavingFixture(): Promise<{ fixture: DelegationFixture; gate: Gate }> {
  const gate = createGate();
  const fixture = await startDelegationFixture({
    main: (turn) => {
      if (turn.prompt === 'hang') return { hang: true };
      if (turn.prompt === 'leave' && turn.step === 1) return lifecycleTaskReply('alpha', 'slow job', { background: true }, 'bg job');
      return { text: 'done' };
    },
    alpha: async () => {
      await gate.promise;
      return { text: 'alpha finished' };
    },
  });
  return { fixture, gate };
}
