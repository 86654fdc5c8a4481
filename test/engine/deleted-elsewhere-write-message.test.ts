import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import type { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { backgroundScanServer } from './support/background-scan.js';
import { openAIModelFor } from '../support/openai-model.js';
import { testAgent } from '../support/agent-turns.js';
import { settled } from '../support/lifecycle-script.js';

// A background task whose conversation another engine deleted has its write refused: the
// error it fails with says what happened to it (no save was asked by the user) and what to do.
let server: FakeOpenAIServer | undefined;
const engines: HarnessEngine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((e) => e.close()));
  await server?.close();
  server = undefined;
});

describe('a background task write refused as its conversation was deleted by another engine', () => {
  it('fails with a DeletedConversationError worded for the refused write', async () => {
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    server = await backgroundScanServer(gate, 'FINDINGS of the scan', true);
    const dir = await realpath(await mkdtemp(join(tmpdir(), 'rx-elsewhere-message-')));
    const make = (): HarnessEngine => {
      const key = new Uint8Array(32).fill(5);
      const engine = new HarnessEngine({ model: openAIModelFor(server!), workspace: dir, homeDir: dir, sessions: new FileSessionStore(dir, { grantKey: key, home: dir }) });
      engine.agents.add(testAgent('scanner'));
      engines.push(engine);
      return engine;
    };
    const [a, b] = [make(), make()];
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
