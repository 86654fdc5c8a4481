/**
 * The per-template fixture of the real-server lane: one `llama-server` (two slots, so a
 * parent and a child, or a run and a probe, can both run), a recording proxy in front of
 * it, and a throw-away workspace; started before a template's checks and stopped after
 * them, on failure too.
 *
 * @module
 */
import { afterAll, beforeAll } from 'vitest';
import { LlamaServer } from './llama-server.js';
import { RecordingProxy } from './recording-proxy.js';
import { Workspace } from './real-engine.js';
import type { TemplateProfile } from './templates.js';

/** What a template's checks share. */
export interface Rig {
  readonly dir: string;
  readonly profile: TemplateProfile;
  readonly server: LlamaServer;
  /** In front of `server`; `proxy.baseURL` is what models use. */
  readonly proxy: RecordingProxy;
  readonly workspace: Workspace;
}

/**
 * Registers the start and stop hooks of a server with `profile`'s template. Call the getter
 * once at the start of a test: it also clears the proxy's record, so each check reads only
 * its own requests.
 */
export function useRig(dir: string, profile: TemplateProfile): () => Rig {
  return useServer(dir, profile, (server, proxy) => ({ dir, profile, server, proxy, workspace: new Workspace() }));
}

/** A second server of the same template (for a child agent): its own hooks, in the calling `describe`; the getter clears its proxy too. */
export function useSecondServer(dir: string, profile: TemplateProfile): () => { server: LlamaServer; proxy: RecordingProxy } {
  return useServer(dir, profile, (server, proxy) => ({ server, proxy }));
}

function useServer<T extends { server: LlamaServer; proxy: RecordingProxy; workspace?: Workspace }>(
  dir: string,
  profile: TemplateProfile,
  make: (server: LlamaServer, proxy: RecordingProxy) => T,
): () => T {
  let made: T | undefined;
  let server: LlamaServer | undefined;
  beforeAll(async () => {
    server = await LlamaServer.start(dir, profile.file);
    made = make(server, await RecordingProxy.start(server.url));
  }, 30_000);
  afterAll(async () => {
    await made?.proxy.close();
    await server?.stop();
    made?.workspace?.remove();
  });
  return () => {
    if (!made) throw new Error(`the llama-server for ${profile.label} did not start (see the hook's error above)`);
    made.proxy.clear();
    return made;
  };
}
