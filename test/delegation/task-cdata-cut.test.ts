/**
 * A `]]>` is written in 15 characters (its CDATA section is split around it). A `task`
 * result was cut at `maxResultChars` before that split, so an answer made of `]]>` was
 * written 5 times as long as the bound: 60,000 characters for 12,000. It is now cut as it is
 * written, as the entries of a `multitask` are: the result holds `maxResultChars` written
 * characters of content, plus its XML and labels and the marker.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { formatTaskResult, truncationMarker } from '../../src/delegation/task-result-format.js';
import { testAgent } from '../support/agent-turns.js';
import { collect, own } from '../support/collect-events.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { steps, taskReply } from '../support/delegation-script.js';

let f: DelegationFixture;
afterEach(() => f.close());

const MAX = 12_000;
const SPLIT = ']]]]><![CDATA[>';

describe('a task answer full of `]]>`', () => {
  it('is cut as written: the result is maxResultChars of content plus a fixed overhead', async () => {
    const answer = ']]>'.repeat(50_000);
    f = await startDelegationFixture({ main: steps(taskReply('alpha', 'close them all', 'closers'), { text: 'done' }), alpha: () => ({ text: answer, chunkSize: 50_000 }) });
    const events = await collect(f.engine({}, [testAgent('alpha')]).stream('go'));
    const end = own(events, 'ToolCallEnd')[0]!;
    const taskId = /<task_id>([^<]*)<\/task_id>/.exec(end.text)![1]!;
    // Its XML and labels (a result with empty content) and its marker.
    const overhead = formatTaskResult({ description: 'closers', agentName: 'alpha', taskId, status: 'success', content: '' }).length + truncationMarker(answer.length).length;
    expect(end.text.length).toBeLessThanOrEqual(MAX + overhead);
    // It keeps whole splits up to the bound, and says how much went.
    const kept = MAX / SPLIT.length; // 800 `]]>`
    expect(end.text).toContain(`<result_content><![CDATA[${SPLIT.repeat(kept)}${truncationMarker(answer.length - 3 * kept)}]]></result_content>`);
    // What the parent's next request carried is that text, not the whole answer.
    const sent = f.requestsOf('main')[1]!.body.messages!.find((m) => m.role === 'tool')!;
    expect(String(sent.content).length).toBeLessThanOrEqual(MAX + overhead);
  });
});
