import { createHmac, timingSafeEqual } from 'node:crypto';
import { dirname, join } from 'node:path';
import { onceWarner } from '../errors/warn-once.js';
import type { ApprovalGrant } from './session-store.js';
import { assertOutsideWorkspace, readOrMakeGrantKey } from './grant-key.js';
import { ConversationLifetimes } from './conversation-lifetimes.js';
import { ephemeralLifetimes, type Lifetime } from './ephemeral-lifetimes.js';
import { lifetimeFolders, type SessionFolderPaths } from './session-folder-paths.js';

/** The warning code said when `FileSessionStore` has no key to sign grants with. */
export const GRANT_KEY_UNUSABLE = 'RXHARNESS_GRANT_KEY_UNUSABLE';

const warnNoKey = onceWarner(GRANT_KEY_UNUSABLE);

/**
 * Where a grant holds: the store's folder (its real path, `folder`, which the seal binds; its
 * `named` path keys the conversation's lifetime with it, `lifetimeFolders`) and the session.
 */
export interface GrantPlace extends SessionFolderPaths {
  readonly sessionId: string;
}

/**
 * The key a {@link GrantSeal} signs with: given bytes or text (`key`), or a key file read
 * (made when missing) when first needed (`file`), refused when it lies in `workspace`, where
 * the model's tools would read it; or none, and why (`refused`).
 */
export type GrantKeySource = { readonly key: Uint8Array | string } | { readonly file: string; readonly workspace: string } | { readonly refused: string };

/**
 * Signs and checks the "always" grants a `FileSessionStore` keeps in its folder, which lies
 * in the workspace, where a cloned repository or a model's command can plant files: a grant
 * line holds an HMAC-SHA256, under the user's key, of the folder, the session, the tool and
 * the subject, so a planted line, or one copied from another session or folder, grants
 * nothing. Without a usable key (see {@link GrantKeySource}) it says so once, as a process
 * warning (`RXHARNESS_GRANT_KEY_UNUSABLE`), and signs and passes nothing: grants then hold
 * only in memory, for the life of the process. The same key seals the store's session
 * history ({@link GrantSeal.macs}, `history-seal.ts`). Each seal also binds the
 * conversation's lifetime (how many times it was deleted, {@link GrantSeal.lifetime}), so a
 * grant kept aside before a delete grants nothing once put back.
 */
export class GrantSeal {
  private key: Promise<Buffer | undefined> | undefined;
  /** Set once the key is known to be usable: given, or read from its file. */
  private keyRead: boolean;
  /** Beside the key file (in the process for a key given in code): outside the workspace. */
  private readonly lifetimes: ConversationLifetimes;

  constructor(private readonly source: GrantKeySource) {
    if ('key' in source && source.key.length === 0) throw new TypeError('grantKey must not be empty');
    this.keyRead = 'key' in source;
    this.lifetimes = 'key' in source ? ConversationLifetimes.inMemory() : new ConversationLifetimes(lifetimesFolder(source));
  }

  /**
   * The conversation's lifetime: how many times it was deleted (0 when never), read anew each
   * time, the higher of the counts kept under the folder's two paths (`lifetimeFolders`); for
   * an ephemeral run's task session, its random lifetime (`EphemeralLifetimes`).
   * Rejects when its file is unreadable or corrupt (`ConversationLifetimes.current`).
   */
  async lifetime(place: GrantPlace): Promise<Lifetime> {
    const folders = lifetimeFolders(place);
    const ephemeral = folders.map((folder) => ephemeralLifetimes.of(folder, place.sessionId)).find((text) => text !== undefined);
    return ephemeral ?? this.lifetimes.current(folders, place.sessionId);
  }

  /**
   * Ends the conversation's lifetime (a delete, before its files go): what was sealed for it
   * passes no more, through either path of the folder (see {@link lifetime}). Answers the
   * lifetime that ended; nothing (`undefined`) without a usable key, which seals nothing. An
   * ephemeral run's task session's random lifetime is forgotten, and no delete is counted
   * (`EphemeralLifetimes` says why that is as safe).
   */
  async endLifetime(place: GrantPlace): Promise<Lifetime | undefined> {
    if (!(await this.macs())) return undefined;
    const folders = lifetimeFolders(place);
    return ephemeralLifetimes.end(folders, place.sessionId) ?? this.lifetimes.end(folders, place.sessionId);
  }

  /**
   * Whether the key is known to be usable: a given key at once, a key file once read (the
   * first seal or check reads it). `false` before, and for good when it is unusable.
   */
  get usable(): boolean {
    return this.keyRead;
  }

  /** The line to store for `grant`, or `undefined` without a key. */
  async line(place: GrantPlace, grant: ApprovalGrant): Promise<string | undefined> {
    const macs = await this.macs();
    if (!macs) return undefined;
    const stored: ApprovalGrant = grant.subject === undefined ? { toolName: grant.toolName } : { toolName: grant.toolName, subject: grant.subject };
    return `${JSON.stringify({ ...stored, mac: macs.sign(grantFacts(place, await this.lifetime(place), stored)) })}\n`;
  }

  /** For each stored entry, the grant it is when this key signed it for this place; else `undefined`. */
  async verified(place: GrantPlace, entries: readonly unknown[]): Promise<(ApprovalGrant | undefined)[]> {
    if (entries.length === 0) return [];
    const macs = await this.macs();
    if (!macs) return entries.map(() => undefined);
    const lifetime = await this.lifetime(place);
    return entries.map((entry) => verify(macs, place, lifetime, entry));
  }

  /**
   * Signing and checking with this key, for anything else the store seals (its session
   * history: see `history-seal.ts`), or `undefined` without a usable key (said once).
   */
  async macs(): Promise<Macs | undefined> {
    const key = await this.usableKey();
    return key && macsWith(key);
  }

  private usableKey(): Promise<Buffer | undefined> {
    this.key ??= this.readKey().catch((e: unknown) => {
      const where = 'file' in this.source ? this.source.file : 'the home folder';
      warnNoKey(where, `"always" approvals are kept for this process only and stored ones are ignored, and session history is stored and loaded unsealed (unchecked): ${(e as Error).message}`);
      return undefined;
    });
    return this.key;
  }

  private async readKey(): Promise<Buffer> {
    const source = this.source;
    if ('key' in source) return Buffer.from(source.key);
    if ('refused' in source) throw new Error(source.refused);
    await assertOutsideWorkspace(source.file, source.workspace);
    const key = await readOrMakeGrantKey(source.file);
    this.keyRead = true;
    return key;
  }
}

/**
 * HMAC-SHA256 under one key of a list of facts (the JSON of the array: no two lists give the
 * same text), each list starting with a tag that says what is sealed (`rxharness-grant-1`...),
 * so a MAC of one kind never passes as another's.
 */
export interface Macs {
  /** The MAC of `facts`, in hex. */
  sign(facts: readonly unknown[]): string;
  /** Whether `given` is the MAC of `facts`: exactly the hex `sign` writes (else no MAC), compared in constant time. */
  check(facts: readonly unknown[], given: unknown): boolean;
}

/** A MAC as `sign` writes it: the 32 bytes of an HMAC-SHA256 in lower-case hex, nothing else. */
const MAC_HEX = /^[0-9a-f]{64}$/;

function macsWith(key: Buffer): Macs {
  const sign = (facts: readonly unknown[]): string => createHmac('sha256', key).update(JSON.stringify(facts)).digest('hex');
  return {
    sign,
    check(facts, given) {
      // Exactly what `sign` writes: Buffer.from(hex) stops at the first non-hex character, so
      // a valid MAC with anything after it (or an odd last digit) would decode as the MAC.
      if (typeof given !== 'string' || !MAC_HEX.test(given)) return false;
      return timingSafeEqual(Buffer.from(given, 'hex'), Buffer.from(sign(facts), 'hex'));
    },
  };
}

/**
 * What a grant's MAC covers (a missing subject is null); from the first delete on, the
 * conversation's lifetime too (lifetime 0 seals as before lifetimes were kept).
 */
function grantFacts(place: GrantPlace, lifetime: Lifetime, grant: ApprovalGrant): readonly unknown[] {
  if (lifetime === 0) return ['rxharness-grant-1', place.folder, place.sessionId, grant.toolName, grant.subject ?? null];
  return ['rxharness-grant-2', place.folder, place.sessionId, lifetime, grant.toolName, grant.subject ?? null];
}

/** Where a key file's seals keep the conversations' lifetimes: beside it (none without a key: nothing is sealed). */
function lifetimesFolder(source: Exclude<GrantKeySource, { readonly key: Uint8Array | string }>): string | undefined {
  return 'file' in source ? join(dirname(source.file), 'lifetimes') : undefined;
}

function verify(macs: Macs, place: GrantPlace, lifetime: Lifetime, entry: unknown): ApprovalGrant | undefined {
  if (typeof entry !== 'object' || entry === null) return undefined;
  const { toolName, subject, mac: given } = entry as Record<string, unknown>;
  if (typeof toolName !== 'string' || (subject !== undefined && typeof subject !== 'string')) return undefined;
  const grant: ApprovalGrant = subject === undefined ? { toolName } : { toolName, subject };
  return macs.check(grantFacts(place, lifetime, grant), given) ? grant : undefined;
}
