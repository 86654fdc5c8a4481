import { spawn } from 'node:child_process';
import { createGate } from '../support/deferred.js';
import type { AgentRoute, DelegationFixture } from '../support/delegation-fixture.js';

/**
 * Runs `script` (a process driving the fixture's engine once over its sessions folder) with
 * `main` as the main agent's route, until its task agent `alpha` has asked the model, then kills
 * the process (SIGKILL) mid-task, as a crash would; alpha's model call is let go after. Rejects
 * when the process exits before alpha starts (with what it printed).
 */
export async function killedMidTask(f: DelegationFixture, script: string, main: AgentRoute): Promise<void> {
  const arrived = createGate();
  const hang = createGate();
  f.route({
    main,
    alpha: async () => {
      arrived.open();
      await hang.promise;
      return { text: 'never' };
    },
  });
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    env: { ...process.env, BASE_URL: f.server.baseURL, WORKSPACE: f.workspace.dir, HOME_DIR: f.home },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await Promise.race([arrived.promise, exited.then(() => Promise.reject(new Error(`the child exited: ${out}`)))]);
  child.kill('SIGKILL');
  await exited;
  hang.open();
}
