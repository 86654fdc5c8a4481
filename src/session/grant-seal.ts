import { createHmac, timingSafeEqual } from 'node:crypto';
import { onceWarner } from '../errors/warn-once.js';
import type { ApprovalGrant } from './session-store.js';
import { assertOutsideWorkspace, readOrMakeGrantKey } from './grant-key.js';

/** The warning code said when `FileSessionStore` has no key to sign grants with. */
export const GRANT_KEY_UNUSABLE = 'RXHARNESS_GRANT_KEY_UNUSABLE';

const warnNoKey = onceWarner(GRANT_KEY_UNUSABLE);

/** Where a grant holds: the store's folder (its real path) and the session. */
export interface GrantPlace {
  readonly folder: string;
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
 * only in memory, for the life of the process.
 */
export class GrantSeal {
  private key: Promise<Buffer | undefined> | undefined;

  constructor(private readonly source: GrantKeySource) {
    if ('key' in source && source.key.length === 0) throw new TypeError('grantKey must not be empty');
  }

  /** The line to store for `grant`, or `undefined` without a key. */
  async line(place: GrantPlace, grant: ApprovalGrant): Promise<string | undefined> {
    const key = await this.usableKey();
    const stored: ApprovalGrant = grant.subject === undefined ? { toolName: grant.toolName } : { toolName: grant.toolName, subject: grant.subject };
    return key && `${JSON.stringify({ ...stored, mac: mac(key, place, stored) })}\n`;
  }

  /** For each stored entry, the grant it is when this key signed it for this place; else `undefined`. */
  async verified(place: GrantPlace, entries: readonly unknown[]): Promise<(ApprovalGrant | undefined)[]> {
    if (entries.length === 0) return [];
    const key = await this.usableKey();
    return entries.map((entry) => (key ? verify(key, place, entry) : undefined));
  }

  private usableKey(): Promise<Buffer | undefined> {
    this.key ??= this.readKey().catch((e: unknown) => {
      const where = 'file' in this.source ? this.source.file : 'the home folder';
      warnNoKey(where, `"always" approvals are kept for this process only and stored ones are ignored: ${(e as Error).message}`);
      return undefined;
    });
    return this.key;
  }

  private async readKey(): Promise<Buffer> {
    const source = this.source;
    if ('key' in source) return Buffer.from(source.key);
    if ('refused' in source) throw new Error(source.refused);
    await assertOutsideWorkspace(source.file, source.workspace);
    return readOrMakeGrantKey(source.file);
  }
}

function mac(key: Buffer, place: GrantPlace, grant: ApprovalGrant): string {
  // JSON of an array: no two places and grants give the same text (a missing subject is null).
  const what = JSON.stringify(['rxharness-grant-1', place.folder, place.sessionId, grant.toolName, grant.subject ?? null]);
  return createHmac('sha256', key).update(what).digest('hex');
}

function verify(key: Buffer, place: GrantPlace, entry: unknown): ApprovalGrant | undefined {
  if (typeof entry !== 'object' || entry === null) return undefined;
  const { toolName, subject, mac: given } = entry as Record<string, unknown>;
  if (typeof toolName !== 'string' || (subject !== undefined && typeof subject !== 'string') || typeof given !== 'string') return undefined;
  const grant: ApprovalGrant = subject === undefined ? { toolName } : { toolName, subject };
  const expected = Buffer.from(mac(key, place, grant), 'hex');
  const actual = Buffer.from(given, 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected) ? grant : undefined;
}
