import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** An empty workspace and an empty home folder, so no user's agent definitions leak in. */
export interface TempDirs {
  readonly workspace: string;
  readonly home: string;
  remove(): Promise<void>;
}

/** Creates both folders under the system temp folder. */
export async function makeTempDirs(): Promise<TempDirs> {
  const make = async (name: string): Promise<string> => realpath(await mkdtemp(join(tmpdir(), `rxharness-bench-${name}-`)));
  const workspace = await make('ws');
  const home = await make('home');
  return {
    workspace,
    home,
    remove: async () => {
      await rm(workspace, { recursive: true, force: true });
      await rm(home, { recursive: true, force: true });
    },
  };
}
