/**
 * A demo server (`rxharness serve`'s `startDemoServer`) on a free port, in a CLI sandbox, on
 * the offline demo model or a fake OpenAI server: what the demo-server and serve tests each
 * set up and tore down alike.
 *
 * @module
 */
import { afterEach } from 'vitest';
import { createDemoModel } from '../../src/demo/demo-model.js';
import { startDemoServer, type DemoServer, type DemoServerOptions } from '../../src/web/demo-server.js';
import { cliSandbox, type CliSandbox } from '../cli/cli-sandbox.js';
import type { FakeHandler } from './fake-openai/types.js';
import { FakeOpenAIServer } from './fake-openai-server.js';
import { openAIModelFor } from './openai-model.js';

/** One started demo server, its sandbox, and its fake model server when it has one. */
export interface StartedDemo {
  readonly demo: DemoServer;
  readonly sandbox: CliSandbox;
  /** Set when started with `fake`. */
  readonly fake?: FakeOpenAIServer;
}

/** What {@link DemoServers.start} starts. */
export interface DemoStart {
  /** The model: a fake OpenAI server answering with this handler (default: the offline demo model). */
  readonly fake?: FakeHandler;
  /** More options of the server (`maxRuns`, …). */
  readonly server?: Omit<DemoServerOptions, 'port' | 'model' | 'workspace' | 'homeDir'>;
}

/** Starts demo servers for the tests of the calling file. */
export interface DemoServers {
  /** A demo server on a free port (closed after the test, with its fake server and sandbox). */
  start(options?: DemoStart): Promise<StartedDemo>;
}

/**
 * Registers, in the calling file, the closing after each test of what it started (in this
 * order: the demo server, its fake model server, its sandbox; a test may close them itself).
 */
export function useDemoServers(): DemoServers {
  let started: Partial<StartedDemo> = {};
  afterEach(async () => {
    const { demo, fake, sandbox } = started;
    started = {};
    await demo?.close();
    await fake?.close();
    await sandbox?.cleanup();
  });
  return {
    start: async ({ fake: handler, server = {} } = {}) => {
      const fake = handler ? await FakeOpenAIServer.start({ handler }) : undefined;
      started = { fake };
      const sandbox = await cliSandbox();
      started = { fake, sandbox };
      const model = fake ? openAIModelFor(fake) : createDemoModel({ chunkDelayMs: 0 });
      const demo = await startDemoServer({ ...server, port: 0, model, workspace: sandbox.workspace.dir, homeDir: sandbox.home });
      started = { fake, sandbox, demo };
      return started as StartedDemo;
    },
  };
}
