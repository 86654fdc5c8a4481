import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, vi } from 'vitest';

/** A definition file's text with the given name (and optional extra front-matter lines). */
export function agentFile(name: string, extra = '', body = `You are ${name}.`): string {
  return `---\nname: ${name}\ndescription: The ${name} agent.\n${extra}---\n${body}\n`;
}

/** A temporary folder for one test; `write` creates files (and parents) inside it. */
export class TempDir {
  private constructor(readonly path: string) {}

  static async create(): Promise<TempDir> {
    return new TempDir(await mkdtemp(join(tmpdir(), 'rxharness-agents-')));
  }

  /** Writes `files` (relative path → text) and returns the absolute path of the first. */
  async write(files: Record<string, string>): Promise<void> {
    for (const [relative, text] of Object.entries(files)) {
      const file = join(this.path, relative);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, text);
    }
  }

  join(...parts: string[]): string {
    return join(this.path, ...parts);
  }

  async remove(): Promise<void> {
    await rm(this.path, { recursive: true, force: true });
  }
}

/** The folders of each test of a file, and its clock: see {@link tempWorkspaceAndHome}. */
export interface TempWorkspaceAndHome {
  /** The current test's workspace folder. */
  readonly workspace: TempDir;
  /** The current test's home folder. */
  readonly home: TempDir;
  /**
   * Moves the clock a minute past every file the test wrote: they have settled (see
   * SETTLED_MS), so what is read of them may be kept.
   */
  settled(): void;
}

/**
 * Registers the `beforeEach` that makes a workspace and a home folder and fakes `Date` (only:
 * timers run as they do), and the `afterEach` that puts the clock back and removes both. Read
 * the folders inside tests. Call at the top of a file or a `describe`.
 */
export function tempWorkspaceAndHome(): TempWorkspaceAndHome {
  let workspace: TempDir | undefined;
  let home: TempDir | undefined;
  beforeEach(async () => {
    workspace = await TempDir.create();
    home = await TempDir.create();
    // A file the test wrote is kept only once settled: the test puts the clock on (settled()).
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  afterEach(async () => {
    vi.useRealTimers();
    await workspace?.remove();
    await home?.remove();
  });
  return {
    get workspace() {
      return workspace!;
    },
    get home() {
      return home!;
    },
    settled: () => vi.setSystemTime(Date.now() + 60_000),
  };
}
