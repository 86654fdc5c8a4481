import { join, relative, resolve } from 'node:path';
import { realFolderPath } from './real-folder-path.js';

/**
 * The two paths a `FileSessionStore`'s folder is known by, found anew for each read, write
 * and delete ({@link sessionFolderPaths}): what every seal binds, and what keys the
 * conversations' lifetimes (`ConversationLifetimes`, `EphemeralLifetimes`).
 */
export interface SessionFolderPaths {
  /**
   * The folder's real path (`realFolderPath`: while missing, the one it has once put back):
   * the folder every seal binds, so stores opened through different paths to it share its
   * files, and a file copied from another folder passes no seal.
   */
  readonly folder: string;
  /**
   * The folder as the store was opened: its path under the workspace (or `options.dir` given
   * outside it), the workspace's part taken by its real path and the rest by its text, links
   * in it not followed. Only the engine's configuration sets it: no link the model makes,
   * moves or retargets in the workspace changes it.
   */
  readonly named: string;
}

/**
 * The folder paths of a store whose files are confined to `root` (the workspace, or the
 * folder itself when it lies outside it), its folder being `dir`: the one way the store's
 * seals (reads and writes) and its deletes find them, so both key a conversation's lifetime
 * alike.
 *
 * Why two keys close what one leaves open: a lifetime keyed by the real path alone is lost
 * when the model moves a link on the way during a delete (`.rxharness -> elsewhere` moved
 * aside or retargeted: the delete ends the lifetime of another real place, and once the link
 * is back, the reads' real path finds none ended). The named path is what the engine was
 * configured with, which the model cannot move, so the same store's reads find the delete
 * whatever the link did meanwhile. The real path is what stores opened through different
 * paths to one folder share (a link to the workspace), so a delete through one is found by
 * the others. Anchoring the named path at the workspace's real path (outside the model's
 * reach) makes it the same for stores opened through different paths to one workspace too.
 *
 * @throws Error (from `realFolderPath`) when a path goes through a link loop or cannot be read.
 */
export function sessionFolderPaths(root: string, dir: string): () => Promise<SessionFolderPaths> {
  const inside = relative(resolve(root), resolve(dir));
  // Found once it is found: the workspace's path lies outside the model's reach.
  let realRoot: string | undefined;
  return async () => {
    const [folder, rootPath] = await Promise.all([realFolderPath(dir), realRoot ?? realFolderPath(root)]);
    realRoot = rootPath;
    return { folder, named: join(rootPath, inside) };
  };
}

/** The paths a lifetime of the folder is kept under: the named one, then the real one when it differs. */
export function lifetimeFolders(paths: SessionFolderPaths): readonly string[] {
  return paths.named === paths.folder ? [paths.named] : [paths.named, paths.folder];
}
