import { concat, from, throwError } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { presentRun } from '../../src/cli/present-run.js';
import { runTree } from '../../src/cli/run-tree.js';
import { MAX_SHOWN_ERROR_CHARS } from '../../src/cli/shown-error.js';
import { FixtureRun } from '../adapters/fixtures.js';
import { sandboxPerTest } from './sandbox-per-test.js';

// A model server writes the run's error (its body, an echo of the model's name): 100 KB of it
// printed whole would bury the terminal. The CLI prints its start and its end, and says how much it cut.

const sandbox = sandboxPerTest();

const HEAD = 'template error begins here';
const TAIL = 'System message must be at the beginning.';

// Each line of `text` that starts with `start`, and the lines after it up to the next `[` line (the error may hold line breaks).
function lineOf(text: string, start: string): string {
  const at = text.indexOf(start);
  expect(at).toBeGreaterThanOrEqual(0);
  const end = text.indexOf('\n[', at);
  return text.slice(at, end === -1 ? undefined : end);
}

describe('rxharness run: a long error from the model server', () => {
  it("prints the `run failed:` line's head and tail, at most about 2,000 characters, saying how much was cut", async () => {
    const huge = `${HEAD} ${'x'.repeat(100_000)} ${TAIL}`;
    const server = await sandbox.serve({ handler: () => ({ status: 400, errorMessage: huge, headers: { 'x-should-retry': 'false' } }) });
    const cli = sandbox.io({ OPENAI_API_KEY: 'sk-test' });
    expect(await main(['run', '--model', 'm', '--base-url', server.baseURL, 'hi'], cli)).toBe(1);
    const line = lineOf(cli.stdoutText(), '[main] run failed: ');
    expect(line).toContain(HEAD);
    expect(line).toContain(TAIL);
    expect(line).toMatch(/\[\.\.\. \d{5,6} characters cut \.\.\.\]/);
    expect(line.length).toBeLessThan(MAX_SHOWN_ERROR_CHARS + 200);
    expect(cli.stdoutText().length).toBeLessThan(MAX_SHOWN_ERROR_CHARS + 1_000);
  });

  it('cuts a 5,000-character --model the server echoes in its error', async () => {
    const model = `${'m'.repeat(2_500)}-middle-${'n'.repeat(2_500)}`;
    const server = await sandbox.serve({
      handler: (request) => ({ status: 404, errorMessage: `The model \`${String(request.body.model)}\` does not exist`, headers: { 'x-should-retry': 'false' } }),
    });
    const cli = sandbox.io({ OPENAI_API_KEY: 'sk-test' });
    expect(await main(['run', '--model', model, '--base-url', server.baseURL, 'hi'], cli)).toBe(1);
    const line = lineOf(cli.stdoutText(), '[main] run failed: ');
    expect(line).toMatch(/^\[main\] run failed: .*mmmm/);
    expect(line).toContain('nnn` does not exist');
    expect(line).not.toContain('-middle-');
    expect(line).toMatch(/characters cut/);
    expect(line.length).toBeLessThan(MAX_SHOWN_ERROR_CHARS + 200);
  });

  it('keeps a short error whole', async () => {
    const server = await sandbox.serve({ handler: () => ({ status: 400, errorMessage: `${HEAD} ${TAIL}`, headers: { 'x-should-retry': 'false' } }) });
    const cli = sandbox.io({ OPENAI_API_KEY: 'sk-test' });
    expect(await main(['run', '--model', 'm', '--base-url', server.baseURL, 'hi'], cli)).toBe(1);
    const line = lineOf(cli.stdoutText(), '[main] run failed: ');
    expect(line).toContain(`${HEAD} ${TAIL}`);
    expect(line).not.toMatch(/characters cut/);
  });
});

describe('rxharness: other long lines on stderr', () => {
  it('cuts an error quoting a 5,000-character value (an unknown @agent): start and end kept', async () => {
    const cli = sandbox.io({ RXHARNESS_DEMO_DELAY_MS: '0' });
    expect(await main(['run', '--demo', `@${'a'.repeat(5_000)}`, 'hi'], cli)).toBe(2);
    const said = cli.stderrText();
    expect(said).toMatch(/^rxharness: unknown agent "aaaa/);
    expect(said).toMatch(/characters cut/);
    expect(said).toMatch(/available agents: .*explore/); // the end, which says what to do, is kept
    expect(said.length).toBeLessThan(MAX_SHOWN_ERROR_CHARS + 50);
  });
});

describe('runTree: a run that fails with a 100 KB error after its tree began', () => {
  it("cuts the tree's `error:` line and stderr's, keeping the error's name, start and end", async () => {
    const run = new FixtureRun('m', 'main');
    const failing = concat(from([run.start('go')]), throwError(() => new TypeError(`${HEAD} ${'z'.repeat(100_000)} ${TAIL}`)));
    const cli = sandbox.io();
    const shown = presentRun(runTree(failing, cli), false, cli);
    expect(await shown.code).toBe(1);
    shown.stop();
    const out = cli.stdoutText();
    expect(out).toMatch(new RegExp(`^error: TypeError: ${HEAD} z+ \\[\\.\\.\\. \\d+ characters cut \\.\\.\\.\\] z+ ${TAIL}\n$`));
    expect(out.length).toBeLessThan(MAX_SHOWN_ERROR_CHARS + 100);
    const said = cli.stderrText();
    expect(said).toMatch(new RegExp(`^rxharness: ${HEAD} z+ \\[\\.\\.\\. \\d+ characters cut \\.\\.\\.\\] z+ ${TAIL}\n$`));
    expect(said.length).toBeLessThan(MAX_SHOWN_ERROR_CHARS + 100);
  });
});
