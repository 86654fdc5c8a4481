import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { cliSandbox, type CliSandbox } from './cli-sandbox.js';

// A Claude Code definition (`model: sonnet`) was listed without a word, although the engine
// has no model of that name: `run @reviewer` then exited 1, and every task to it failed.

let sandbox: CliSandbox;
beforeEach(async () => {
  sandbox = await cliSandbox();
});
afterEach(() => sandbox.cleanup());

const definition = (name: string, more = ''): string => `---\nname: ${name}\ndescription: Reviews.\n${more}---\nYou review.\n`;

/** What `agents` says of a file whose `model` is `named`, on the CLI's engine (no named models). */
const unknownModel = (named: string): string =>
  `model "${named}" names no model of this engine (models: none), so every run of this agent and every task to it fails. ` +
  "Leave model out to run the agent on its parent's model (rxharness runs every agent on its --model), or name a key of the engine option models (which code sets).";

describe('rxharness agents: a definition naming a model the engine does not have', () => {
  it('lists it with a warning saying which models there are and what to do, and exits 0 (it was loaded)', async () => {
    const reviewer = await sandbox.workspace.file('.rxharness/agents/reviewer.md', definition('reviewer', 'model: sonnet\n'));
    await sandbox.workspace.file('.rxharness/agents/plain.md', definition('plain'));
    const io = sandbox.io();
    expect(await main(['agents'], io)).toBe(0);
    const out = io.stdoutText();
    expect(out).toMatch(/^reviewer +\[workspace\]/m);
    expect(out).toContain(`\n1 definition file loaded with warnings:\n  ${reviewer}: ${unknownModel('sonnet')}\n`);
  });

  it('--json says the same, for the main agent\'s definition too, its name escaped', async () => {
    const reviewer = await sandbox.workspace.file('.rxharness/agents/reviewer.md', definition('reviewer', 'model: haiku\n'));
    const lead = await sandbox.workspace.file('.rxharness/agents/lead.md', definition('lead', 'mode: primary\nmodel: "gpt\\"x"\n'));
    const io = sandbox.io();
    expect(await main(['agents', '--json'], io)).toBe(0);
    const doc = JSON.parse(io.stdoutText()) as { diagnostics: { file: string; reason: string }[]; notLoaded: string[] };
    expect(doc.diagnostics).toEqual(expect.arrayContaining([{ file: reviewer, reason: unknownModel('haiku') }, { file: lead, reason: unknownModel('gpt\\"x') }]));
    expect(doc.diagnostics).toHaveLength(2);
    expect(doc.notLoaded).toEqual([]);
  });

  it("takes Claude Code's model: inherit as the parent's model: listed without a warning", async () => {
    await sandbox.workspace.file('.rxharness/agents/reviewer.md', definition('reviewer', 'model: inherit\n'));
    await sandbox.workspace.file('.rxharness/agents/lead.md', definition('lead', 'mode: primary\nmodel: " inherit "\n'));
    const io = sandbox.io();
    expect(await main(['agents', '--json'], io)).toBe(0);
    const doc = JSON.parse(io.stdoutText()) as { agents: { name: string }[]; diagnostics: unknown[]; notLoaded: string[] };
    expect(doc.agents.map((a) => a.name)).toEqual(expect.arrayContaining(['reviewer', 'lead']));
    expect(doc.diagnostics).toEqual([]);
    expect(doc.notLoaded).toEqual([]);
  });
});
