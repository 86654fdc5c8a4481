import { randomBytes, randomUUID } from 'node:crypto';
import { constants } from 'node:fs';
import { link, mkdir, open, realpath, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { isWithin } from './confined-file.js';
import { errnoOf } from '../errors/errno-of.js';

/** How many bytes a grant key file holds. */
export const GRANT_KEY_BYTES = 32;

/**
 * The per-user key file that signs `FileSessionStore` grants: `<home>/.rxharness/grant.key`,
 * outside every workspace, so a cloned repository cannot ship grants that pass.
 *
 * @example
 * ```ts
 * homeGrantKeyFile('/home/ann'); // '/home/ann/.rxharness/grant.key'
 * ```
 */
export function homeGrantKeyFile(home: string): string {
  return join(home, '.rxharness', 'grant.key');
}

/**
 * Reads the grant key file, making it first when it is missing: {@link GRANT_KEY_BYTES}
 * random bytes, mode 0600, in a folder made with mode 0700. Made under another name and
 * linked into place, so two processes starting at once end up with one key (the second
 * reads the first's) and no reader ever sees half a key.
 *
 * @throws Error saying what is wrong with the file and what to do, when it is no regular
 * file of exactly {@link GRANT_KEY_BYTES} bytes, or cannot be read or made.
 */
export async function readOrMakeGrantKey(file: string): Promise<Buffer> {
  try {
    return await readGrantKey(file);
  } catch (e) {
    if (errnoOf(e) !== 'ENOENT') throw e;
  }
  await makeGrantKey(file);
  return readGrantKey(file);
}

/**
 * Refuses a key file the workspace holds (the workspace is the home folder, or holds it,
 * maybe through a link): the model's tools would read the key, and forge grants with it.
 *
 * @throws Error saying so and what to do.
 */
export async function assertOutsideWorkspace(file: string, workspace: string): Promise<void> {
  const real = async (path: string): Promise<string> => realpath(path).catch(() => resolve(path));
  const home = dirname(dirname(file)); // <home>/.rxharness/grant.key
  const inside = isWithin(resolve(workspace), resolve(file)) || isWithin(await real(workspace), join(await real(home), '.rxharness', 'grant.key'));
  if (inside) {
    throw new Error(`the grant key ${file} would lie in the workspace ${workspace}, where the model's tools can read it: use a workspace that does not hold the home folder, or give FileSessionStore a grantKey`);
  }
}

async function readGrantKey(file: string): Promise<Buffer> {
  // A link is refused: the key is the user's own file, not one another path leads to.
  const handle = await open(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0)).catch((e: unknown) => {
    if (errnoOf(e) === 'ENOENT') throw e;
    throw new Error(`cannot read the grant key ${file} (${errnoOf(e) ?? (e as Error).message}): delete it to have a new one made`);
  });
  try {
    const stat = await handle.stat();
    if (!stat.isFile() || stat.size !== GRANT_KEY_BYTES) {
      throw new Error(`the grant key ${file} is not a file of ${GRANT_KEY_BYTES} bytes (corrupt or not made by rxharness): delete it to have a new one made`);
    }
    const key = Buffer.alloc(GRANT_KEY_BYTES);
    const { bytesRead } = await handle.read(key, 0, GRANT_KEY_BYTES, 0);
    if (bytesRead !== GRANT_KEY_BYTES) throw new Error(`the grant key ${file} was cut while being read: try again`);
    return key;
  } finally {
    await handle.close();
  }
}

async function makeGrantKey(file: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`;
  try {
    await writeFile(temporary, randomBytes(GRANT_KEY_BYTES), { flag: 'wx', mode: 0o600 });
    // A link never replaces a file: a key another process made first stays the key.
    await link(temporary, file).catch((e: unknown) => {
      if (errnoOf(e) !== 'EEXIST') throw e;
    });
  } catch (e) {
    throw new Error(`cannot make the grant key ${file} (${errnoOf(e) ?? (e as Error).message}): check that the folder can be written`);
  } finally {
    await rm(temporary, { force: true });
  }
}
