import { describe, expect, it } from 'vitest';
import type { HarnessEngine } from '../../src/engine/harness-engine.js';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { settled } from '../support/lifecycle-script.js';
import { scanEnginesPerTest } from './support/scan-engines.js';

// A background task whose conversation another engine deleted has its write refused: the
// error it fails with says what happened to it (no save was asked by the user) and what to do.
const scan = scanEnginesPerTest();

describe('a background task write refused as its conversation was deleted by another engine', () => {
  it('fails with a DeletedConversationError worded for the refused write', async () => {
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    await scan.serve(gate, 'FINDINGS of the scan', true);
    const key = new Uint8Array(32).fill(5);
    const [a, b] = (await scan.engines(2, (dir) => new FileSessionStore(dir, { grantKey: key, home: dir }))) as [HarnessEngine, HarnessEngine];
    await a.call('Start the scan in the background', { sessionId: 'notes' });
    const [task] = a.tasks.list('notes');
    await b.sessions.delete!('notes');
    open();
    const info = await settled(a.tasks, task!.taskId);
    expect(info.state).toBe('failed');
    expect(info.result).toContain(`Background task "${task!.taskId}" stopped: its conversation "notes" was deleted`);
    expect(info.result).toContain('so its transcript was not written back and its result is');
    expect(info.result).not.toContain('Refusing to save');
  }, 60_000);
});
