import { describe, expect, it } from 'vitest';
import { ENGINE_CALL_SCRIPT, modulesLoadedBy } from '../../support/modules-loaded.js';

// The remote-agent runner lives in the delegation layer, which every engine loads: the A2A
// SDK (and its jose, protobuf code) must load only when a remote agent first runs.
const a2aModulesLoadedBy = (script: string): Promise<string[]> => modulesLoadedBy('/node_modules/@a2a-js/', script);

describe('the A2A SDK is loaded on first use', () => {
  it('loads none of it on import, nor while an engine runs a call', async () => {
    expect(await a2aModulesLoadedBy(ENGINE_CALL_SCRIPT)).toEqual([]);
  }, 40_000);

  it('would see it if something imported it (the recorder works)', async () => {
    expect((await a2aModulesLoadedBy(`await import('@a2a-js/sdk/client');`)).length).toBeGreaterThan(0);
  }, 40_000);
});
