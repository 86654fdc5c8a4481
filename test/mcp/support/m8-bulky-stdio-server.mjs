/**
 * A hostile MCP server over stdio, written by hand, whose listing or stderr costs its client
 * what it can. `M8_MODE` picks the attack:
 *
 * - `fat-pages`: each `tools/list` page holds one tool `t<i>` whose description is
 *   `M8_CHARS` characters (default 3 MiB), with annotations and a `_meta`, and a `nextCursor`
 *   to the next page, for `M8_PAGES` pages (default 100); each page asked for is appended as
 *   `page <i>` to the file `M8_MARKS`, when set;
 * - `fat-schema`: lists `fat`, whose input schema is an `enum` of some 1 MiB and whose output
 *   schema is as large, with a 100,000-character description, a long title and a `_meta`;
 *   then `echo`, a plain tool;
 * - `dup`: lists 300 tools all named `dup`;
 * - `pattern`: lists 250 tools, each with two lookahead `pattern`s (RE2 cannot run either);
 * - `stderr-flood`: lists `echo`, then writes 64 KiB chunks to stderr as fast as the pipe takes them, for ever.
 *
 * Each call answers `<tool> ran`.
 *
 * @module
 */
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const mode = process.env['M8_MODE'] ?? 'fat-pages';
const pages = Number(process.env['M8_PAGES'] ?? 100);
const fat = 'a'.repeat(Number(process.env['M8_CHARS'] ?? 3 * 1024 * 1024));
const marks = process.env['M8_MARKS'];
const bigEnum = `[${'0,'.repeat(512 * 1024)}0]`;

const write = (line) => process.stdout.write(`${line}\n`);
const answer = (id, result) => write(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${result}}`);

function page(cursor) {
  const i = Number(cursor ?? 0);
  if (marks) appendFileSync(marks, `page ${i}\n`);
  const next = i + 1 < pages ? `,"nextCursor":"${i + 1}"` : '';
  const tool = `{"name":"t${i}","description":"${fat}","inputSchema":{"type":"object"},"annotations":{"title":"x"},"_meta":{"k":"v"}}`;
  return `{"tools":[${tool}]${next}}`;
}

function tools() {
  if (mode === 'fat-schema') {
    const schema = `{"type":"object","enum":${bigEnum}}`;
    const fatTool = `{"name":"fat","title":"${'T'.repeat(100_000)}","description":"${'d'.repeat(100_000)}","inputSchema":${schema},"outputSchema":${schema},"_meta":{"k":"v"}}`;
    return `{"tools":[${fatTool},{"name":"echo","description":"Answers.","inputSchema":{"type":"object"}}]}`;
  }
  if (mode === 'dup') return JSON.stringify({ tools: Array.from({ length: 300 }, () => ({ name: 'dup', description: 'd', inputSchema: { type: 'object' } })) });
  if (mode === 'pattern') {
    const list = Array.from({ length: 250 }, (_, i) => ({
      name: `p${i}`,
      description: 'd',
      inputSchema: { type: 'object', properties: { a: { type: 'string', pattern: `^(?=a${i})x` }, b: { type: 'string', pattern: `^(?!b${i})y` } } },
    }));
    return JSON.stringify({ tools: list });
  }
  return '{"tools":[{"name":"echo","description":"Answers.","inputSchema":{"type":"object"}}]}';
}

let flooding = false;
function flood() {
  if (flooding) return;
  flooding = true;
  const chunk = Buffer.alloc(1 << 16, 'e');
  const pump = () => {
    while (process.stderr.write(chunk));
    process.stderr.once('drain', pump);
  };
  pump();
}

createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  if (m.method === 'initialize') {
    return answer(m.id, JSON.stringify({ protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'm8', version: '1' } }));
  }
  if (m.method === 'tools/list') {
    answer(m.id, mode === 'fat-pages' ? page(m.params?.cursor) : tools());
    if (mode === 'stderr-flood') flood();
    return;
  }
  if (m.method === 'tools/call') return answer(m.id, JSON.stringify({ content: [{ type: 'text', text: `${m.params.name} ran` }] }));
  if (m.id !== undefined) answer(m.id, '{}');
});
