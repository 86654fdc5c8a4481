import { lastValueFrom, of, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { parseNdjson } from '../../src/adapters/ndjson.js';
import { isAgentEvent, isTaskWrap } from '../../src/events/guards.js';
import { sandboxPerTest } from './sandbox-per-test.js';
import { runCli } from './spawn-cli.js';

const sandbox = sandboxPerTest();

describe('rxharness run --json', () => {
  it('prints one agent event per line, the run’s single unwrapped RunEnd last', async () => {
    const result = await runCli(['run', '--json', '--demo', 'Survey this project'], {
      home: sandbox.home,
      cwd: sandbox.workspace.dir,
      env: { RXHARNESS_DEMO_DELAY_MS: '0' },
    });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout.endsWith('\n')).toBe(true);
    const lines = result.stdout.slice(0, -1).split('\n');
    const parsed: unknown[] = lines.map((line) => JSON.parse(line));
    expect(parsed.every(isAgentEvent)).toBe(true);

    const events = await lastValueFrom(of(result.stdout).pipe(parseNdjson(), toArray()));
    expect(events).toEqual(parsed);
    const runEnds = events.filter((e) => e.type === 'RunEnd');
    expect(runEnds).toHaveLength(1);
    expect(events.at(-1)).toBe(runEnds[0]);
    expect(runEnds[0]).toMatchObject({ agentName: 'main', abnormal: false });
    expect(events[0]).toMatchObject({ type: 'RunStart', agentName: 'main', prompt: 'Survey this project' });

    // the three children arrive wrapped, each with its own taskId and its own child RunEnd
    const wrapped = events.filter(isTaskWrap);
    const tasks = new Map(wrapped.map((w) => [w.taskId, `${w.taskIndex} ${w.taskAgentName} ${w.taskDescription}`]));
    expect([...tasks.values()].sort()).toEqual(['1 explore Map the layout', '2 explore Find the docs', '3 general Count TODO comments']);
    expect(wrapped.filter((w) => w.event.type === 'RunEnd')).toHaveLength(3);
  });
});
