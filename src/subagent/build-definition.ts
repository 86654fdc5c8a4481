import type { PermissionRule } from '../permission/index.js';
import { describeValue } from '../validation/describe-value.js';
import type { AgentDefinition, AgentOrigin } from './agent-definition.js';
import { DefinitionError } from './definition-error.js';
import { readRole } from './definition-role.js';
import { definitionSettings } from './definition-settings.js';
import { FRONT_MATTER_SCHEMA, frontMatterProblem } from './front-matter-schema.js';
import { INHERIT_MODEL, KEY_ALIASES, renameAliases } from './key-aliases.js';
import { misspeltKeyWarnings, wideningTypo } from './misspelt-keys.js';
import { expandToolAliases } from './tool-aliases.js';
import { forbiddenKeyPath, toNameList } from './plain-values.js';
import { toolListProblem } from './tool-list-problem.js';
import { rulePatternProblem } from '../permission/rule-pattern-cost.js';
import { errorMessage } from '../errors/error-message.js';

/** The keys a definition understands, in our spelling (its front matter's schema); anything else is kept in `extra`. */
export const KNOWN_KEYS: readonly string[] = Object.freeze(Object.keys(FRONT_MATTER_SCHEMA.properties).filter((key) => key !== 'primary'));

/**
 * Every key a definition file may use: {@link KNOWN_KEYS}, the other frameworks' spellings
 * of them (`max_turns`, `disallowed_tools`...) and Solon's `primary`.
 */
export const ACCEPTED_KEYS: readonly string[] = Object.freeze([...KNOWN_KEYS, ...Object.keys(KEY_ALIASES), 'primary']);

// Definitions this module built: already valid, so handing one back needs no second check.
const built = new WeakSet<AgentDefinition>();

/** Whether a definition was built (and so validated) by {@link buildDefinition}. */
export function isBuiltDefinition(definition: AgentDefinition): boolean {
  return built.has(definition);
}

/** Where the raw values came from, so messages name what the user actually wrote. */
export interface BuildContext {
  readonly origin: AgentOrigin;
  /** `front matter` for files, `definition` for code. */
  readonly holder: string;
  /** How to name the system prompt when it is empty. */
  readonly promptLabel: string;
}

/**
 * Validates raw fields (front matter, or `defineAgent` input) and the system prompt into a
 * frozen {@link AgentDefinition}. Other frameworks' spellings of a key are read as ours (see
 * `KEY_ALIASES`) and tool aliases are expanded (see `TOOL_ALIASES`); keys outside
 * {@link ACCEPTED_KEYS} go to `extra`. `null` counts as absent, because `tools:` with nothing
 * after it loads as `null`. A `__proto__`, `constructor` or `prototype` key anywhere in the
 * fields (YAML and JSON keep them as own keys) is refused.
 *
 * @throws DefinitionError naming the first problem found.
 */
export function buildDefinition(given: Readonly<Record<string, unknown>>, systemPrompt: unknown, context: BuildContext): AgentDefinition {
  const { origin, holder } = context;
  const rawName = given['name'];
  const where = origin.file ?? (typeof rawName === 'string' && rawName !== '' ? `agent "${rawName}"` : 'agent definition');
  const typo = wideningTypo(given, ACCEPTED_KEYS);
  // The other misspelt keys travel with the fatal problem: all of a file's problems at once.
  const fail = (reason: string): never => {
    const warnings = misspeltKeyWarnings(given, ACCEPTED_KEYS, typo?.key);
    throw new DefinitionError(where, reason, { ...(origin.file === undefined ? {} : { file: origin.file }), warnings });
  };
  const forbidden = forbiddenKeyPath(given);
  if (forbidden !== undefined) fail(forbiddenKeyReason(forbidden, holder));
  if (typo !== undefined) fail(typo.reason);
  // From here on every key is in our spelling (`max_turns` is `maxSteps`).
  const { fields, spelled } = attempt(() => renameAliases(given), fail);
  const present = (key: string): boolean => fields[key] !== undefined && fields[key] !== null;
  const problem = frontMatterProblem(fields, spelled, holder);
  if (problem !== undefined) fail(problem);
  if (typeof systemPrompt !== 'string') fail(`${context.promptLabel} must be a string, got ${describeValue(systemPrompt)}`);

  // From here on every value has the shape FRONT_MATTER_SCHEMA gives it: only conversions remain.
  const description = (fields['description'] as string).trim();
  const a2a = present('a2a') ? new URL(fields['a2a'] as string).href : undefined;
  // A remote A2A agent has its own instructions: its body may be empty (the description stands in).
  const prompt = (systemPrompt as string).trim() || (a2a !== undefined ? description : '');
  if (prompt === '') fail(`${context.promptLabel} is empty: it is the agent's system prompt`);
  const definition: { -readonly [K in keyof AgentDefinition]: AgentDefinition[K] } = {
    name: fields['name'] as string,
    description,
    systemPrompt: prompt,
    hidden: present('hidden') ? (fields['hidden'] as boolean) : false,
    enabled: present('enabled') ? (fields['enabled'] as boolean) : true,
    permissionRules: Object.freeze(present('permissionRules') ? (fields['permissionRules'] as PermissionRule[]).map((rule, i) => toRule(rule, i, spelled, fail)) : []),
    source: origin.source,
    extra: extraOf(fields),
  };
  for (const key of ['tools', 'disallowedTools'] as const) {
    // `pi` and `ls` become the tools they stand for, and a granted `edit` brings `read` and
    // `write`: narrowing sees real names (and the sets `*`, `**`).
    if (!present(key)) continue;
    const names = expandToolAliases(toNameList(fields[key] as string | string[]), { implied: key === 'tools' });
    // Matched against every tool name at each start: a list that would stall the engine is refused now.
    const problem = toolListProblem(names);
    if (problem !== undefined) fail(`"${spelled([key])}" ${problem}`);
    definition[key] = names;
  }
  if (a2a !== undefined) definition.a2a = a2a;
  if (present('skills')) definition.skills = toNameList(fields['skills'] as string | string[]);
  const model = present('model') ? (fields['model'] as string).trim() : INHERIT_MODEL;
  if (model !== INHERIT_MODEL) definition.model = model;
  if (present('maxSteps')) definition.maxSteps = fields['maxSteps'] as number;
  if (present('tokenBudget')) definition.tokenBudget = fields['tokenBudget'] as number;
  const settings = definitionSettings(fields);
  if (settings !== undefined) definition.settings = settings;
  Object.assign(definition, readRole(fields));
  if (origin.file !== undefined) definition.file = origin.file;
  const frozen = Object.freeze(definition);
  built.add(frozen);
  return frozen;
}

/** A rule the schema checked, as the engine keeps one: the tool name trimmed, frozen. */
function toRule(rule: PermissionRule, index: number, spelled: (path: readonly string[]) => string, fail: (reason: string) => never): PermissionRule {
  // Matched against every path the model names: a pattern that could stall the engine is refused now.
  const costly = rulePatternProblem(rule);
  if (costly !== undefined) fail(`"${spelled(['permissionRules'])}"[${index}] ${costly}`);
  const { tool, action, pattern, priority } = rule;
  return Object.freeze({ tool: tool.trim(), action, ...(pattern === undefined ? {} : { pattern }), ...(priority === undefined ? {} : { priority }) });
}

function extraOf(fields: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
  // `fromEntries` defines each key (no assignment, so no key can set the prototype).
  return Object.freeze(Object.fromEntries(Object.entries(fields).filter(([key]) => !ACCEPTED_KEYS.includes(key))));
}

function forbiddenKeyReason(path: readonly string[], holder: string): string {
  const key = path.at(-1)!;
  const where = path.length === 1 ? holder : `${holder} at ${path.slice(0, -1).map((part) => `"${part}"`).join(' > ')}`;
  return `${where} has the key "${key}", which no definition may use ("__proto__", "constructor" and "prototype" would change what the definition inherits instead of setting a value); remove or rename it`;
}

/** Runs a reader whose errors name the problem, and fails the definition with that message. */
function attempt<T>(read: () => T, fail: (reason: string) => never): T {
  try {
    return read();
  } catch (error) {
    return fail(errorMessage(error));
  }
}
