import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as client from '../../src/client/index.js';

const CLIENT = readFileSync(new URL('../../src/client/index.ts', import.meta.url), 'utf8');
const MAIN = readFileSync(new URL('../../src/index.ts', import.meta.url), 'utf8');

/**
 * The reviewed surface of `rxharness/client`: every value it exports. A change here is a
 * change of the public API: review it, then update the list.
 */
const VALUES = [
  'AbortError', 'RunConnectionError', 'RunRequestError', 'RunStreamError', 'RxHarnessError', 'answerApproval', 'cancelRun',
  'fromRun', 'getRun', 'eventText', 'isAgentEvent', 'isRunEnd', 'isTaskWrap', 'ofEventType', 'startRun', 'terminalRunEnd',
  'toUiItem', 'toUiItems', 'unwrapEvent', 'unwrapTaskEvents',
  // conversations and single tasks (issue 26)
  'cancelTask', 'deleteSession', 'getSession', 'listSessions',
  // the task-tree reducer the page and the terminal tree share
  'createTreeState', 'elapsedMs', 'reduceTree', 'settleTree', 'tokensByAgent', 'treeRows', 'waitingApprovals',
  // the one check of an event read from the network (fromRun's and reduceTree's)
  'isWellFormedEvent',
];

/** The names an entry exports from modules whose path ends with `suffix`. */
function exportedFrom(source: string, suffix: string): string[] {
  const names: string[] = [];
  for (const block of source.matchAll(/export (?:type )?\{([^}]*)\} from '([^']+)'/g)) {
    if (!block[2]!.endsWith(suffix)) continue;
    names.push(...block[1]!.split(',').map((n) => n.trim().replace(/^type /, '')).filter(Boolean));
  }
  return names.sort();
}

describe('the rxharness/client entry', () => {
  it('exports exactly the reviewed values, by name', () => {
    expect(CLIENT).not.toMatch(/export (type )?\*/);
    expect(Object.keys(client).sort()).toEqual([...VALUES].sort());
  });

  it('keeps in step with the main entry: every event type, guard, operator and UI item type', () => {
    for (const module of ['/events/agent-event.js', '/events/json.js', '/events/run-metrics.js', '/events/guards.js', '/adapters/ui-item.js', '/adapters/ui-dto.js', '/runs/run-types.js']) {
      const main = exportedFrom(MAIN, module).filter((name) => !name.startsWith('Log')); // how an event log ends is the server's business
      // the check of an event read from the network: a client's business (the main entry keeps to 60 values)
      const client = exportedFrom(CLIENT, module).filter((name) => name !== 'isWellFormedEvent');
      expect(client, module).toEqual(main);
    }
    expect(exportedFrom(CLIENT, '/events/operators/unwrap-task-events.js')).toEqual(exportedFrom(MAIN, '/events/operators/unwrap-task-events.js'));
  });
});
