import { afterEach, describe, expect, it } from 'vitest';
import { truncationMarker } from '../../src/delegation/task-result-format.js';
import { testAgent } from '../support/agent-turns.js';
import { collect, own, wraps } from '../support/collect-events.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { multitaskReply, steps, taskReply } from '../support/delegation-script.js';
import { isWellFormed } from '../support/well-formed.js';

let f: DelegationFixture;
afterEach(() => f.close());

/** The `<result_content>` of a result text, CDATA sections joined back. */
function content(text: string): string {
  const inner = /<result_content>([\s\S]*?)<\/result_content>/.exec(text)?.[1] ?? '';
  return [...inner.matchAll(/<!\[CDATA\[([\s\S]*?)\]\]>/g)].map((m) => m[1]).join('');
}

describe('task result text', () => {
  it('escapes the description and the agent name', async () => {
    f = await startDelegationFixture({ main: steps(taskReply('a<b>&c', 'do it', `<fix> & "ship" it's`)) });
    const events = await collect(f.engine().stream('go'));
    const end = own(events, 'ToolCallEnd')[0]!;
    expect(end.text).toContain('<description>&lt;fix&gt; &amp; &quot;ship&quot; it&apos;s</description>');
    expect(end.text).toContain('<agent_name>a&lt;b&gt;&amp;c</agent_name>');
    expect(end.text).toContain('<result_status>failure</result_status>');
    // Nothing unescaped leaks out of the two fields.
    expect(end.text).not.toContain('<fix>');
  });

  it('splits ]]> in the child answer across CDATA sections', async () => {
    f = await startDelegationFixture({ main: steps(taskReply('alpha', 'x')), alpha: () => ({ text: 'a]]>b <tag/> ]]>' }) });
    const events = await collect(f.engine({}, [testAgent('alpha')]).stream('go'));
    const text = own(events, 'ToolCallEnd')[0]!.text;
    expect(text).toContain('<result_content><![CDATA[a]]]]><![CDATA[>b <tag/> ]]]]><![CDATA[>]]></result_content>');
    expect(content(text)).toBe('a]]>b <tag/> ]]>');
  });

  it('truncates child output longer than maxResultChars with a visible marker', async () => {
    const answer = 'x'.repeat(40) + 'y'.repeat(60);
    f = await startDelegationFixture({ main: steps(taskReply('alpha', 'long')), alpha: () => ({ text: answer, chunkSize: 100 }) });
    const events = await collect(f.engine({ maxResultChars: 40 }, [testAgent('alpha')]).stream('go'));
    const text = own(events, 'ToolCallEnd')[0]!.text;
    expect(content(text)).toBe('x'.repeat(40) + truncationMarker(60));
    expect(text).toContain('60 characters truncated');
    expect(text).not.toContain('yy');
    // The child itself ended with its whole answer; only the parent's copy is cut.
    expect(wraps(events).at(-1)!.event).toMatchObject({ type: 'RunEnd', text: answer });
  });

  it('cuts before a character that maxResultChars would split, so the parent sends only whole text', async () => {
    const answer = `${'x'.repeat(39)}😀${'y'.repeat(20)}`; // the emoji's two units are the 40th and 41st
    f = await startDelegationFixture({ main: steps(taskReply('alpha', 'long'), { text: 'done' }), alpha: () => ({ text: answer, chunkSize: 100 }) });
    const events = await collect(f.engine({ maxResultChars: 40 }, [testAgent('alpha')]).stream('go'));
    expect(content(own(events, 'ToolCallEnd')[0]!.text)).toBe('x'.repeat(39) + truncationMarker(22));
    // What the parent's next request carried: whole text (a lone "\ud83d" is what a strict server refuses).
    const sent = f.requestsOf('main')[1]!.body.messages!.map((m) => String(m.content ?? ''));
    expect(sent.every(isWellFormed)).toBe(true);
  });

  it('keeps output up to 12,000 characters by default', async () => {
    const answer = 'z'.repeat(12_000);
    f = await startDelegationFixture({ main: steps(taskReply('alpha', 'long'), { text: 'done' }), alpha: () => ({ text: answer, chunkSize: 4_000 }) });
    const events = await collect(f.engine({}, [testAgent('alpha')]).stream('go'));
    expect(content(own(events, 'ToolCallEnd')[0]!.text)).toBe(answer);
  });

  it('reports a failure as ERROR: content and marks the call failed; the parent goes on', async () => {
    f = await startDelegationFixture({ main: steps(taskReply('ghost', 'x', 'haunt')) });
    const events = await collect(f.engine({}, [testAgent('alpha'), testAgent('shy', { hidden: true })]).stream('go'));
    const end = own(events, 'ToolCallEnd')[0]!;
    const why = content(end.text);
    expect(why).toMatch(/^ERROR: unknown agent "ghost"/);
    expect(why).toContain('alpha: Test agent alpha.');
    expect(why).toContain('explore');
    expect(why).not.toContain('shy'); // hidden agents are not offered
    expect(end.error).toContain('unknown agent "ghost"');
    // The refused task still has its row: a wrapped RunStart and an abnormal RunEnd saying why.
    expect(wraps(events).map((w) => w.event.type)).toEqual(['RunStart', 'RunEnd']);
    expect(wraps(events)[1]!.event).toMatchObject({ abnormal: true, steps: 0, error: expect.stringMatching(/^unknown agent "ghost"/) });
    expect(events.at(-1)).toMatchObject({ metrics: expect.objectContaining({ tasks: 1 }) });
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false });
  });
});

describe('multitask with a mixed batch', () => {
  it('keeps good results next to an unknown agent and a child failing past its retries', async () => {
    f = await startDelegationFixture({
      main: steps(
        multitaskReply([
          [1, 'alpha', 'good one', 'first'],
          [2, 'ghost', 'lost', 'second'],
          [3, 'alpha', 'fail', 'third'],
          [4, 'beta', 'good two', 'fourth'],
        ]),
      ),
      alpha: (turn) =>
        turn.prompt === 'fail'
          ? { status: 500, errorMessage: 'upstream exploded', headers: { 'retry-after-ms': '1' } }
          : { text: `alpha did ${turn.prompt}` },
      beta: (turn) => ({ text: `beta did ${turn.prompt}` }),
    });
    const engine = f.engine({ model: f.model(undefined, 1) }, [testAgent('alpha'), testAgent('beta')]);
    const events = await collect(engine.stream('go'));

    // The failing child was retried once by the client, then gave up.
    const failing = f.requestsOf('alpha').filter((r) => r.body.messages?.some((m) => m.role === 'user' && m.content === 'fail'));
    expect(failing.map((r) => r.status)).toEqual([500, 500]);
    // Its run ended abnormally (a real RunEnd, wrapped), and that became a failure result.
    const third = wraps(events).filter((w) => w.taskIndex === 3);
    expect(third.at(-1)!.event).toMatchObject({ type: 'RunEnd', abnormal: true });

    const end = own(events, 'ToolCallEnd')[0]!;
    const rows = end.text.split('\n').slice(1, -1);
    expect(rows).toHaveLength(4);
    expect(rows[0]).toContain('<result_status>success</result_status>');
    expect(content(rows[0]!)).toBe('alpha did good one');
    expect(rows[1]).toContain('<agent_name>ghost</agent_name>');
    expect(content(rows[1]!)).toMatch(/^ERROR: unknown agent "ghost"\. Available agents: .*alpha.*beta/);
    expect(rows[2]).toContain('<result_status>failure</result_status>');
    expect(content(rows[2]!)).toMatch(/^ERROR: .*alpha.*abnormally/);
    expect(content(rows[2]!)).toContain('500');
    expect(content(rows[3]!)).toBe('beta did good two');
    // Partial failure is not a failed call, and the parent ends normally.
    expect(end.error).toBeUndefined();
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, agentName: 'main' });
  });

  it('marks the call failed when every task failed', async () => {
    f = await startDelegationFixture({ main: steps(multitaskReply([[1, 'ghost', 'a', 'x'], [2, 'phantom', 'b', 'y']])) });
    const events = await collect(f.engine().stream('go'));
    const end = own(events, 'ToolCallEnd')[0]!;
    expect(end.error).toBeDefined();
    expect(end.text.match(/<result_status>failure<\/result_status>/g)).toHaveLength(2);
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false });
  });

  it('refuses a batch that uses an index twice, before running anything', async () => {
    f = await startDelegationFixture({ main: steps(multitaskReply([[1, 'alpha', 'a', 'x'], [1, 'alpha', 'b', 'y']])) });
    const events = await collect(f.engine({}, [testAgent('alpha')]).stream('go'));
    const end = own(events, 'ToolCallEnd')[0]!;
    expect(end.text).toMatch(/^ERROR: .*index 1 is used twice/);
    expect(f.requestsOf('alpha')).toHaveLength(0);
  });
});
