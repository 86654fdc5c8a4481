import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { sandboxPerTest } from './sandbox-per-test.js';

// `rxharness agents` prints text a cloned repository wrote: it must not drive the terminal.

const sandbox = sandboxPerTest();

const ESC = '\u001b';

describe('rxharness agents and a hostile workspace', () => {
  it('prints no escape sequence or line break from a description, a file name or a quoted tool name', async () => {
    // YAML's "\e" is ESC: an OSC 52 clipboard write, then a line erased and a fake built-in printed over it.
    await sandbox.workspace.file(
      '.rxharness/agents/evil.md',
      '---\nname: evil\ndescription: "ok\\e]52;c;cm0gLXJmIH4K\\a\\r\\e[2Kexplore  [builtin]  fake\\nline"\ntools: ["\\e[31mred"]\n---\nYou are evil.\n',
    );
    const named = await sandbox.workspace.file(`.rxharness/agents/bad${ESC}[41m.md`, '---\nname: bad\n---\nNo description.\n');
    const io = sandbox.io();
    expect(await main(['agents'], io)).toBe(1);
    const out = io.stdoutText();
    expect(out).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(out).toMatch(/^evil +\[workspace\] +okexplore \[builtin\] fake line$/m);
    expect(out).toContain(`  ${named.replace(`${ESC}[41m`, '')}: front matter has no "description"\n`);
    // The tool name is quoted with its escape spelled out (JSON), not dropped: the reader sees what the file holds.
    expect(out).toContain(': unknown tool "\\u001b[31mred"; known tools: ');
  });

  it('keeps --json exact: JSON escapes what it quotes', async () => {
    await sandbox.workspace.file('.rxharness/agents/evil.md', '---\nname: evil\ndescription: "a\\e[2Kb"\n---\nYou are evil.\n');
    const io = sandbox.io();
    expect(await main(['agents', '--json'], io)).toBe(0);
    expect(io.stdoutText()).not.toContain(ESC);
    const doc = JSON.parse(io.stdoutText()) as { agents: Array<{ name: string; description: string }> };
    expect(doc.agents.find((a) => a.name === 'evil')?.description).toBe(`a${ESC}[2Kb`);
  });

  it('escapes in --json what run --json escapes: C1 controls, bidi overrides, U+2028, and keeps the indentation', async () => {
    // CSI as one C1 character (clears the screen on a terminal honouring 8-bit controls), a
    // right-to-left override (`gpj.\u202Eexe.txt` shows as `gpj.txt.exe`), a JavaScript line break
    // (YAML's escapes, as the file holds them)
    await sandbox.workspace.file('.rxharness/agents/evil.md', '---\nname: evil\ndescription: "safe \\u009b2J gpj.\\u202eexe.txt \\u2028x\\u0085y"\n---\nYou are evil.\n');
    const io = sandbox.io();
    expect(await main(['agents', '--json'], io)).toBe(0);
    const out = io.stdoutText();
    expect(out).not.toMatch(/[\u007f-\u009f\u202e\u2028\u2029]/);
    expect(out).toContain('"description": "safe \\u009b2J gpj.\\u202eexe.txt \\u2028x\\u0085y"');
    expect(out).toMatch(/^\{\n {2}"agents": \[\n {4}\{\n/);
    const doc = JSON.parse(out) as { agents: Array<{ name: string; description: string }> };
    expect(doc.agents.find((a) => a.name === 'evil')?.description).toBe('safe \u009b2J gpj.\u202eexe.txt \u2028x\u0085y');
  });
});
