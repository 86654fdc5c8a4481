import { describe, expect, it } from 'vitest';
import { ENGINE_CALL_SCRIPT, modulesLoadedBy } from '../support/modules-loaded.js';

// TypeBox's builders load some 370 modules (~20 MiB, ~200 ms) when imported: our schemas are
// JSON schema literals typed with `import type { Static }`, so importing the package and
// running an engine must load none of it. TypeBox stays a dependency for our .d.ts files.

const typeboxModulesLoadedBy = (script: string): Promise<string[]> => modulesLoadedBy('/node_modules/typebox/', script);

describe('the import cost of the package', () => {
  it('loads no TypeBox module on import, nor while an engine runs a call', async () => {
    const loaded = await typeboxModulesLoadedBy(ENGINE_CALL_SCRIPT);
    expect(loaded).toEqual([]);
  }, 40_000);

  it('would see TypeBox if something imported it (the recorder works)', async () => {
    const loaded = await typeboxModulesLoadedBy(`await import('typebox');`);
    expect(loaded.length).toBeGreaterThan(0);
  }, 40_000);
});
