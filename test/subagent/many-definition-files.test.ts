/**
 * A workspace that planted thousands of definition files: every definition's name and
 * description go into the delegation tools' description, sent with each request of the main
 * agent, so one root brings at most MAX_AGENT_FILES files (and reads as many folders), and a
 * diagnostic counts what was left out.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentDiagnostic } from '../../src/subagent/agent-diagnostic.js';
import { listMarkdownFiles, MAX_AGENT_FILES } from '../../src/subagent/list-markdown-files.js';

let root: string;
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('a root with more definition files than one may bring', () => {
  it('lists the first 256 in order and says how many were left out', () => {
    root = mkdtempSync(join(tmpdir(), 'rxh-many-'));
    for (let i = 0; i < 300; i++) writeFileSync(join(root, `a${String(i).padStart(3, '0')}.md`), '---\nname: x\n---\n');
    const diagnostics: AgentDiagnostic[] = [];
    const files = listMarkdownFiles(root, diagnostics);
    expect(files).toHaveLength(MAX_AGENT_FILES);
    expect(files.at(-1)).toBe(join(root, 'a255.md'));
    expect(diagnostics).toEqual([{ file: root, reason: 'holds more than 256 definition files or folders; 44 were left out (the first 256 files, in order, are read)' }]);
  });

  it('reads no more than 256 folders however many it holds', () => {
    root = mkdtempSync(join(tmpdir(), 'rxh-many-'));
    for (let i = 0; i < 400; i++) mkdirSync(join(root, `d${String(i).padStart(3, '0')}`));
    writeFileSync(join(root, 'd399', 'late.md'), '');
    const diagnostics: AgentDiagnostic[] = [];
    expect(listMarkdownFiles(root, diagnostics)).toEqual([]);
    expect(diagnostics[0]!.reason).toMatch(/^holds more than 256 definition files or folders; 145 were left out/);
  });
});
