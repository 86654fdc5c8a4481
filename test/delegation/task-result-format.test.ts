import { describe, expect, it } from 'vitest';
import {
  cdata,
  escapeXml,
  formatMultitaskResults,
  formatTaskResult,
  truncate,
  truncationMarker,
  type TaskResultFields,
} from '../../src/delegation/task-result-format.js';

const ok = (index: number, content = `answer ${index}`): TaskResultFields => ({
  index,
  description: `task ${index}`,
  agentName: 'alpha',
  taskId: `task_${index}`,
  status: 'success',
  content,
});

describe('formatTaskResult', () => {
  it('writes the contract fields in order, content in CDATA', () => {
    expect(formatTaskResult({ description: 'scan', agentName: 'explore', taskId: 't1', status: 'success', content: 'done' })).toBe(
      '<task_result><description>scan</description><agent_name>explore</agent_name><task_id>t1</task_id>' +
        '<result_status>success</result_status><result_content><![CDATA[done]]></result_content></task_result>',
    );
  });

  it('puts the index first inside a multitask line', () => {
    expect(formatTaskResult(ok(3))).toMatch(/^<task_result><index>3<\/index><description>task 3<\/description>/);
  });

  it('escapes description and agent name but keeps content raw inside CDATA', () => {
    const text = formatTaskResult({
      description: `<b>"fix" & 'ship'</b>`,
      agentName: 'a<b>&c',
      taskId: 't',
      status: 'failure',
      content: 'ERROR: <raw> & "kept"',
    });
    expect(text).toContain('<description>&lt;b&gt;&quot;fix&quot; &amp; &apos;ship&apos;&lt;/b&gt;</description>');
    expect(text).toContain('<agent_name>a&lt;b&gt;&amp;c</agent_name>');
    expect(text).toContain('<result_status>failure</result_status>');
    expect(text).toContain('<![CDATA[ERROR: <raw> & "kept"]]>');
  });
});

describe('cdata', () => {
  it('splits every ]]> across two sections so the content cannot close early', () => {
    const wrapped = cdata('a]]>b]]>');
    expect(wrapped).toBe('<![CDATA[a]]]]><![CDATA[>b]]]]><![CDATA[>]]>');
    // Reading the sections back gives the original text.
    const back = [...wrapped.matchAll(/<!\[CDATA\[([\s\S]*?)\]\]>/g)].map((m) => m[1]).join('');
    expect(back).toBe('a]]>b]]>');
  });
});

describe('escapeXml', () => {
  it('escapes the five XML specials and nothing else', () => {
    expect(escapeXml(`&<>"' plain`)).toBe('&amp;&lt;&gt;&quot;&apos; plain');
  });
});

describe('truncate', () => {
  it('keeps text up to the limit untouched', () => {
    expect(truncate('x'.repeat(10), 10)).toBe('x'.repeat(10));
  });

  it('cuts longer text and says how much went', () => {
    const cut = truncate('abcdefghij', 4);
    expect(cut).toBe(`abcd${truncationMarker(6)}`);
    expect(cut).toContain('6 characters truncated');
  });
});

describe('formatMultitaskResults', () => {
  it('lists the results in index order, one per line, whatever order they came in', () => {
    const text = formatMultitaskResults([ok(3), ok(1), { ...ok(2), status: 'failure', content: 'ERROR: boom' }]);
    const lines = text.split('\n');
    expect(lines[0]).toBe('<multitask_results>');
    expect(lines.at(-1)).toBe('</multitask_results>');
    expect(lines.slice(1, -1).map((l) => /<index>(\d+)<\/index>/.exec(l)?.[1])).toEqual(['1', '2', '3']);
    expect(lines[2]).toContain('<result_status>failure</result_status><result_content><![CDATA[ERROR: boom]]>');
  });
});
