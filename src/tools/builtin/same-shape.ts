/**
 * `true` when two types accept the same values: a built-in tool's documented arguments
 * interface is checked against the type its JSON schema gives (TypeBox's `Static`), so the
 * two cannot drift apart.
 *
 * @internal
 */
export type SameShape<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
