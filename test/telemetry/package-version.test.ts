import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { PACKAGE_VERSION } from '../../src/telemetry/package-version.js';
import { useInMemoryTracing } from '../support/in-memory-tracing.js';
import { EMPTY_HOME } from '../support/empty-home.js';

const exporter = useInMemoryTracing();
afterEach(() => exporter.reset());

const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { name: string; version: string };

describe('the package version in telemetry', () => {
  it('is package.json\'s version (scripts/write-package-version.mjs writes it; npm run build and npm version run that)', () => {
    expect(PACKAGE_VERSION).toBe(manifest.version);
  });

  it('names the tracer scope of every span: the package and its version', async () => {
    const engine = new HarnessEngine({ model: new ScriptedModel([{ text: 'hi' }]), homeDir: EMPTY_HOME });
    await engine.call('hello');
    await engine.close();
    const spans = exporter.getFinishedSpans();
    expect(spans.length).toBeGreaterThan(0);
    for (const span of spans) expect(span.instrumentationScope).toMatchObject({ name: manifest.name, version: manifest.version });
  });
});
