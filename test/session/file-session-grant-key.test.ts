import { mkdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import type { ApprovalRequest } from '../../src/permission/approval.js';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { makeWorkspace, type TestWorkspace } from '../support/tool-context.js';

// Never the real home: a temporary one, given to the store or set as HOME.
let ws: TestWorkspace;
let home: TestWorkspace;
beforeEach(async () => {
  ws = await makeWorkspace();
  home = await makeWorkspace('rxharness-home-');
});
afterEach(async () => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  await ws.cleanup();
  await home.cleanup();
});

const GRANT = { toolName: 'bash', subject: 'echo hi' } as const;
const keyFile = (): string => join(home.dir, '.rxharness', 'grant.key');
const bashOnce = () => new ScriptedModel((request) => (request.messages.at(-1)?.role === 'user' ? { toolCalls: [{ name: 'bash', args: { command: 'echo hi' } }] } : { text: 'ok' }));
const warningsSaid = () => vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);

describe("FileSessionStore's default grant key, in the user's home folder", () => {
  it('is made when missing (32 bytes, 0600, in a 0700 folder), and signs grants a new store on the folder accepts', async () => {
    await new FileSessionStore(ws.dir, { home: home.dir }).saveGrant('notes', GRANT);
    const key = await stat(keyFile());
    expect(key.size).toBe(32);
    if (process.platform !== 'win32') {
      expect(key.mode & 0o777).toBe(0o600);
      expect((await stat(join(home.dir, '.rxharness'))).mode & 0o777).toBe(0o700);
    }
    expect(await new FileSessionStore(ws.dir, { home: home.dir }).loadGrants('notes')).toEqual([GRANT]);
  });

  it('is found through HOME (os.homedir()) when no home is given', async () => {
    vi.stubEnv('HOME', home.dir);
    vi.stubEnv('USERPROFILE', home.dir);
    await new FileSessionStore(ws.dir).saveGrant('notes', GRANT);
    expect((await stat(keyFile())).size).toBe(32);
    expect(await new FileSessionStore(ws.dir).loadGrants('notes')).toEqual([GRANT]);
  });

  it('corrupt: a warning names the file and what to do; grants hold in memory only, nothing stored is trusted', async () => {
    await new FileSessionStore(ws.dir, { home: home.dir }).saveGrant('notes', GRANT); // signed with the good key
    await writeFile(keyFile(), 'oops!');
    const said = warningsSaid();
    const asked: ApprovalRequest[] = [];
    const engine = new HarnessEngine({ model: bashOnce(), workspace: ws.dir, homeDir: home.dir, sessions: new FileSessionStore(ws.dir, { home: home.dir }), approve: (r) => (asked.push(r), { decision: 'always' }) });
    await engine.call('go', { sessionId: 'notes' });
    await engine.call('again', { sessionId: 'notes' }); // the "always" holds for this process
    await engine.close();
    expect(asked).toHaveLength(1);
    expect(said).toHaveBeenCalledWith(expect.stringMatching(/grant key .*grant\.key is not a file of 32 bytes.*delete it to have a new one made/), { code: 'RXHARNESS_GRANT_KEY_UNUSABLE' });
    expect(await readFile(keyFile(), 'utf8')).toBe('oops!'); // never replaced behind the user's back
    expect((await readFile(join(ws.dir, '.rxharness', 'sessions', 'notes.grants.jsonl'), 'utf8')).trim().split('\n')).toHaveLength(1); // not stored
  });

  it('in the workspace (the home folder is the workspace): refused with a warning, no key made there', async () => {
    const said = warningsSaid();
    const store = new FileSessionStore(ws.dir, { home: ws.dir });
    await store.saveGrant('notes', GRANT);
    expect(said).toHaveBeenCalledWith(expect.stringMatching(/would lie in the workspace/), { code: 'RXHARNESS_GRANT_KEY_UNUSABLE' });
    await expect(stat(join(ws.dir, '.rxharness', 'grant.key'))).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(stat(join(ws.dir, '.rxharness', 'sessions', 'notes.grants.jsonl'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('in the workspace through a link (HOME names a link to the workspace): refused the same way', async () => {
    const said = warningsSaid();
    const linkedHome = join(home.dir, 'home-link');
    await symlink(ws.dir, linkedHome);
    await new FileSessionStore(ws.dir, { home: linkedHome }).saveGrant('notes', GRANT);
    expect(said).toHaveBeenCalledWith(expect.stringMatching(/would lie in the workspace/), { code: 'RXHARNESS_GRANT_KEY_UNUSABLE' });
    await expect(stat(join(ws.dir, '.rxharness', 'grant.key'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('a link in its place is refused', async () => {
    if (process.platform === 'win32') return;
    await mkdir(join(home.dir, '.rxharness'), { recursive: true });
    await writeFile(join(home.dir, 'elsewhere.key'), Buffer.alloc(32, 7));
    await symlink(join(home.dir, 'elsewhere.key'), keyFile());
    const said = warningsSaid();
    await new FileSessionStore(ws.dir, { home: home.dir }).saveGrant('notes', GRANT);
    expect(said).toHaveBeenCalledWith(expect.stringMatching(/cannot read the grant key .*grant\.key/), { code: 'RXHARNESS_GRANT_KEY_UNUSABLE' });
  });
});
