import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { homeGrantKeyFile } from './grant-key.js';
import { GrantSeal, type GrantKeySource, type GrantPlace } from './grant-seal.js';
import type { Lifetime } from './ephemeral-lifetimes.js';
import type { SessionFolderPaths } from './session-folder-paths.js';
import type { ApprovalGrant } from './session-store.js';
import { errnoOf } from '../errors/errno-of.js';

/** What {@link FileSessionGrants} needs of its store: its confined file access. */
export interface GrantFiles {
  /** Makes the store's folder (once). */
  mkdir(): Promise<unknown>;
  /** The text of the session's grants file; rejects with `ENOENT` when there is none. */
  read(sessionId: string): Promise<string>;
  /** Appends whole lines to the session's grants file. */
  append(sessionId: string, lines: string): Promise<void>;
}

/**
 * The "always" approvals of a `FileSessionStore`'s conversations (`<id>.grants.jsonl`, one
 * per line), each signed by a {@link GrantSeal} over the folder's real path and the session:
 * the folder lies in the workspace, where a planted or copied line must grant nothing.
 */
export class FileSessionGrants {
  /**
   * `paths` finds the folder's paths (`sessionFolderPaths`: its real one, which the seal
   * binds, and its named one, which keys the lifetimes with it); `seal` signs and checks the
   * stored grants (see {@link storeSeal}).
   */
  constructor(
    private readonly paths: () => Promise<SessionFolderPaths>,
    private readonly files: GrantFiles,
    private readonly seal: GrantSeal,
  ) {}

  /**
   * Whether what `save` keeps is what `load` lists, for every store of the folder
   * with the same key: once the key is known to be usable (without one, nothing is kept).
   */
  get kept(): boolean {
    return this.seal.usable;
  }

  /**
   * The session's grants. A line cut by a crash is skipped; a line that is no grant this
   * key signed for this folder and session comes back as an entry that is no grant
   * (`{ notSigned: true }`), so that the run counts it and asks again.
   */
  async load(sessionId: string): Promise<readonly ApprovalGrant[]> {
    let text: string;
    try {
      text = await this.files.read(sessionId);
    } catch (e) {
      if (errnoOf(e) === 'ENOENT') return [];
      throw e;
    }
    const entries = text.split('\n').flatMap((line): unknown[] => {
      try {
        return line.trim() === '' ? [] : [JSON.parse(line)];
      } catch {
        return []; // a line cut by a crash
      }
    });
    const grants = await this.seal.verified(await this.place(sessionId), entries);
    return grants.map((grant) => grant ?? NOT_SIGNED);
  }

  /** Keeps a signed grant; without a usable key, nothing (the grant holds in memory only). */
  async save(sessionId: string, grant: ApprovalGrant): Promise<void> {
    await this.files.mkdir(); // before `place`: the folder's real path needs the folder
    const line = await this.seal.line(await this.place(sessionId), grant);
    if (line !== undefined) await this.files.append(sessionId, line);
  }

  /**
   * Ends the session's lifetime (a delete, before its files go) through this seal, the one
   * every part of the store seals with (`GrantSeal.endLifetime`): a second seal on the same
   * key would read the key file again and keep lifetimes apart from the ones the seals read.
   * Answers the lifetime that ended; `undefined` without a usable key.
   */
  async endLifetime(sessionId: string): Promise<Lifetime | undefined> {
    return this.seal.endLifetime(await this.place(sessionId));
  }

  /** What a grant of the session is signed for: the folder by its real path (another path to it is the same folder), and its lifetimes' paths. */
  private async place(sessionId: string): Promise<GrantPlace> {
    return { ...(await this.paths()), sessionId };
  }
}

/**
 * What {@link FileSessionGrants.load} answers for a stored line that is no grant it signed:
 * an entry without a `toolName`, which a run skips and counts (a store may answer entries
 * that are no grants; the run checks each).
 */
const NOT_SIGNED = Object.freeze({ notSigned: true }) as unknown as ApprovalGrant;

/**
 * The seal of a `FileSessionStore`'s grants and history: `grantKey` when given; without it,
 * the key file in `home` (default `os.homedir()`), refused when it lies in `workspace`.
 *
 * @throws TypeError for an empty `grantKey`.
 */
export function storeSeal(options: { readonly workspace: string; readonly grantKey?: Uint8Array | string; readonly home?: string }): GrantSeal {
  return new GrantSeal(options.grantKey !== undefined ? { key: options.grantKey } : homeKey(options.workspace, options.home));
}

/** The key file in `home` (default `os.homedir()`, which can fail: then no key, said when first needed). */
function homeKey(workspace: string, home: string | undefined): GrantKeySource {
  try {
    return { file: homeGrantKeyFile(resolve(home ?? homedir())), workspace };
  } catch (e) {
    return { refused: `cannot find the home folder for the grant key (${(e as Error).message}): set HOME, or give FileSessionStore a grantKey` };
  }
}
