import { closest } from '../errors/did-you-mean.js';
import type { AgentDefinition } from './agent-definition.js';
import type { AgentDiagnostic } from './agent-diagnostic.js';
import { canonicalKey, spellingsOf } from './key-aliases.js';

/**
 * Names other tools use for a key of ours that we do not accept (Claude Code skills'
 * `allowedTools`, ...): worth a did-you-mean. Spellings we accept are in `KEY_ALIASES`.
 */
const ALIASES: Readonly<Record<string, string>> = {
  tool: 'tools', allowedtools: 'tools', toollist: 'tools',
  deniedtools: 'disallowedTools', disabledtools: 'disallowedTools', blockedtools: 'disallowedTools',
  permissions: 'permissionRules', rules: 'permissionRules', permission: 'permissionRules',
};

/** Keys whose absence gives the agent more than meant, and what it would get. */
const WIDENS: Readonly<Record<string, string>> = {
  tools: 'every tool its parent has',
  disallowedTools: 'the tools it was meant to lose',
  permissionRules: 'none of the rules meant to restrict it',
};

/**
 * The known key `key` was probably meant to be, if any: an alias, the same letters in
 * another case or with `-`/`_`, or one or two typing slips away (one for short keys).
 * `known` holds every accepted spelling, so the answer may be one (`max_turn` gives `max_turns`).
 *
 * @example
 * ```ts
 * likelyKey('disalowedTools', ACCEPTED_KEYS); // 'disallowedTools'
 * likelyKey('max_turn', ACCEPTED_KEYS); // 'max_turns'
 * likelyKey('skills', ACCEPTED_KEYS); // undefined
 * ```
 */
export function likelyKey(key: string, known: readonly string[]): string | undefined {
  const alias = ALIASES[key.toLowerCase().replace(/[-_]/g, '')];
  if (alias !== undefined && known.includes(alias)) return alias;
  return closest(key, known);
}

/**
 * The misspelt key that would widen a definition (`tool:` for `tools:` gives every tool) and
 * why it must not load, or `undefined`. Only when the real key is absent in every
 * spelling (`disallowed_tools` counts for `disallowedTools`): next to it, the typo changes nothing.
 */
export function wideningTypo(fields: Readonly<Record<string, unknown>>, known: readonly string[]): { readonly key: string; readonly reason: string } | undefined {
  for (const key of Object.keys(fields)) {
    if (known.includes(key)) continue;
    const meant = likelyKey(key, known);
    if (meant === undefined) continue;
    const widens = WIDENS[canonicalKey(meant)];
    const given = spellingsOf(canonicalKey(meant)).some((spelling) => fields[spelling] !== undefined && fields[spelling] !== null);
    if (widens === undefined || given) continue;
    return { key, reason: `unknown key "${key}"; did you mean "${meant}"? Without "${meant}" the agent would get ${widens}, so it is not loaded` };
  }
  return undefined;
}

/** A warning per ignored key of `definition.extra` that looks like a misspelt known key. */
export function misspeltKeyDiagnostics(definition: AgentDefinition, known: readonly string[]): AgentDiagnostic[] {
  const file = definition.file ?? `agent "${definition.name}" (${definition.source})`;
  return misspeltKeyWarnings(definition.extra, known).map((reason) => ({ file, reason }));
}

/**
 * A warning per key of `fields` outside `known` that looks like a misspelt known key
 * (`unknown key "hiden" is ignored; did you mean "hidden"?`), leaving out `except`.
 */
export function misspeltKeyWarnings(fields: Readonly<Record<string, unknown>>, known: readonly string[], except?: string): string[] {
  return Object.keys(fields).flatMap((key) => {
    const meant = known.includes(key) || key === except ? undefined : likelyKey(key, known);
    return meant === undefined ? [] : [`unknown key "${key}" is ignored; did you mean "${meant}"?`];
  });
}
