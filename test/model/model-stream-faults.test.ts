import { afterEach, describe, expect, it } from 'vitest';
import { OpenAIChatModel } from '../../src/model/openai-chat-model.js';
import { testAgent, type Turn } from '../support/agent-turns.js';
import { record, type EventRecording } from '../support/collect-events.js';
import { MAIN_MODEL, startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { multitaskReply, steps } from '../support/delegation-script.js';
import { expectBatchOutcome, FAULT_BATCH } from '../support/fault-batch.js';
import type { FakeReply } from '../support/fake-openai-server.js';

// Streams that go silent, stop short or end oddly, met by one child of a three-task
// multitask, through the real `openai` client against the fake server: each becomes either
// the child's answer or a failure result saying what happened; the parent and the siblings
// are unharmed.

/** The model's timeoutMs: long enough for any healthy exchange on a loaded machine. */
const TIMEOUT_MS = 1_000;

let fixture: DelegationFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

async function runBatch(faulty: (turn: Turn) => FakeReply): Promise<EventRecording> {
  fixture = await startDelegationFixture({
    main: steps(multitaskReply(FAULT_BATCH)),
    alpha: (turn) => ({ text: `alpha did ${turn.prompt}` }),
    beta: (turn) => ({ text: `beta did ${turn.prompt}` }),
    faulty,
  });
  const model = new OpenAIChatModel({ model: MAIN_MODEL, baseURL: fixture.server.baseURL, apiKey: 'k', maxRetries: 0, timeoutMs: TIMEOUT_MS });
  const engine = fixture.engine({ model, multitaskMaxTasks: 3 }, [testAgent('alpha'), testAgent('beta'), testAgent('faulty')]);
  return record(engine.stream('fan out'));
}

describe('a child meets an odd stream; the parent ends once, the siblings keep their results', () => {
  it('the stream goes silent after two chunks: a failure result naming the silence, the request aborted', async () => {
    const run = await runBatch(() => ({ text: 'a reply that stops halfway', chunkSize: 4, stallAfterChunks: 2 }));
    await expectBatchOutcome(run, {
      status: 'failure',
      content: /^ERROR: the faulty task ended abnormally: .*sent nothing for 1000 ms \(timeoutMs\) after 2 chunks/,
    });
    expect(fixture!.requestsOf('faulty').map((r) => r.aborted)).toEqual([true]);
  });

  it('the stream ends cleanly but early (no finish_reason, no [DONE]): a failure result saying it was cut', async () => {
    const run = await runBatch(() => ({ text: 'a reply that is cut short', chunkSize: 4, endAfterChunks: 2 }));
    await expectBatchOutcome(run, {
      status: 'failure',
      content: /^ERROR: the faulty task ended abnormally: .*the stream ended after 2 chunks without finish_reason or \[DONE\]/,
    });
  });

  it('the last chunk has no delta: the child answers normally, with its whole text', async () => {
    const run = await runBatch((turn) => ({ text: `faulty did ${turn.prompt}`, chunkSize: 3, omitFinishDelta: true }));
    await expectBatchOutcome(run, { status: 'success', content: /^faulty did job two$/ });
  });

  it('the server ignores stream: true and answers JSON: the child answers normally', async () => {
    const run = await runBatch((turn) => ({ text: `faulty did ${turn.prompt}`, ignoreStream: true }));
    await expectBatchOutcome(run, { status: 'success', content: /^faulty did job two$/ });
  });
});
