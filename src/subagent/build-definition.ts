import { parsePermissionRules, type PermissionRule } from '../permission/index.js';
import { AGENT_NAME_PATTERN, type AgentDefinition, type AgentOrigin } from './agent-definition.js';
import { DefinitionError } from './definition-error.js';
import { readRole } from './definition-role.js';
import { definitionSettings, SETTING_KEYS } from './definition-settings.js';
import { KEY_ALIASES, renameAliases } from './key-aliases.js';
import { misspeltKeyWarnings, wideningTypo } from './misspelt-keys.js';
import { expandToolAliases } from './tool-aliases.js';
import { readSkillNames } from './skills/skill-names.js';
import { describeValue, toToolList } from './value-checks.js';
import { errorMessage } from '../errors/error-message.js';

/** The keys a definition understands, in our spelling; anything else is kept in `extra`. */
export const KNOWN_KEYS: readonly string[] = Object.freeze([
  'name', 'description', 'tools', 'disallowedTools', 'model', 'maxSteps', 'tokenBudget', 'mode', 'color', 'override', 'hidden', 'enabled',
  'permissionRules', 'settings', 'skills', 'a2a', ...Object.keys(SETTING_KEYS),
]);

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
 * after it loads as `null`.
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
  if (typo !== undefined) fail(typo.reason);
  // From here on every key is in our spelling (`max_turns` is `maxSteps`).
  const { fields, spelled } = attempt(() => renameAliases(given), fail);
  const present = (key: string): boolean => fields[key] !== undefined && fields[key] !== null;

  const name = requiredText(fields, 'name', holder, fail);
  if (!AGENT_NAME_PATTERN.test(name)) {
    fail(`"name" must contain only letters, digits, "_" and "-" (got ${JSON.stringify(name)})`);
  }
  const description = requiredText(fields, 'description', holder, fail).trim();
  if (description === '') fail('"description" is empty');
  if (typeof systemPrompt !== 'string') fail(`${context.promptLabel} must be a string, got ${describeValue(systemPrompt)}`);
  const a2a = present('a2a') ? remoteCardUrl(fields['a2a'], fail) : undefined;
  // A remote A2A agent has its own instructions: its body may be empty (the description stands in).
  const prompt = (systemPrompt as string).trim() || (a2a !== undefined ? description : '');
  if (prompt === '') fail(`${context.promptLabel} is empty: it is the agent's system prompt`);

  const definition: { -readonly [K in keyof AgentDefinition]: AgentDefinition[K] } = {
    name,
    description,
    systemPrompt: prompt,
    hidden: optionalBoolean(fields, 'hidden', false, fail),
    enabled: optionalBoolean(fields, 'enabled', true, fail),
    permissionRules: present('permissionRules') ? rules(fields['permissionRules'], fail) : Object.freeze([]),
    source: origin.source,
    extra: extraOf(fields),
  };
  for (const key of ['tools', 'disallowedTools'] as const) {
    if (!present(key)) continue;
    const list = toToolList(spelled(key), fields[key]);
    // `pi` and `ls` become the tools they stand for, and a granted `edit` brings `read` and
    // `write`: narrowing sees real names (and the sets `*`, `**`).
    definition[key] = typeof list === 'string' ? fail(list) : expandToolAliases(list, { implied: key === 'tools' });
  }
  if (a2a !== undefined) definition.a2a = a2a;
  if (present('skills')) {
    const skills = readSkillNames('skills', fields['skills']);
    definition.skills = typeof skills === 'string' ? fail(skills) : skills;
  }
  if (present('model')) {
    const model = fields['model'];
    if (typeof model !== 'string' || model.trim() === '') {
      fail(`"model" must be a model name (a non-empty string), got ${describeValue(model)}`);
    }
    definition.model = (model as string).trim();
  }
  if (present('maxSteps')) {
    const steps = fields['maxSteps'];
    if (typeof steps !== 'number' || !Number.isInteger(steps) || steps < 1) {
      fail(`"${spelled('maxSteps')}" must be a positive integer, got ${describeValue(steps)}`);
    }
    definition.maxSteps = steps as number;
  }
  if (present('tokenBudget')) {
    const budget = fields['tokenBudget'];
    if (typeof budget !== 'number' || !Number.isInteger(budget) || budget < 1) {
      fail(`"${spelled('tokenBudget')}" must be a positive integer (tokens), got ${describeValue(budget)}`);
    }
    definition.tokenBudget = budget as number;
  }
  const settings = attempt(() => definitionSettings(fields), fail);
  if (settings !== undefined) definition.settings = settings;
  Object.assign(definition, attempt(() => readRole(fields), fail));
  if (origin.file !== undefined) definition.file = origin.file;
  const frozen = Object.freeze(definition);
  built.add(frozen);
  return frozen;
}

function requiredText(fields: Readonly<Record<string, unknown>>, key: string, holder: string, fail: (reason: string) => never): string {
  const value = fields[key];
  if (value === undefined || value === null || value === '') fail(`${holder} has no "${key}"`);
  if (typeof value !== 'string') {
    const hint = typeof value === 'number' || typeof value === 'boolean' ? ' (put it in quotes)' : '';
    fail(`"${key}" must be a string, got ${describeValue(value)}${hint}`);
  }
  return value as string;
}

function optionalBoolean(fields: Readonly<Record<string, unknown>>, key: string, fallback: boolean, fail: (reason: string) => never): boolean {
  const value = fields[key];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'boolean') fail(`"${key}" must be true or false, got ${describeValue(value)}`);
  return value as boolean;
}

/** An `a2a` value: the http(s) URL of a remote agent's card (or of the agent, whose card is at `/.well-known/agent-card.json`). */
function remoteCardUrl(value: unknown, fail: (reason: string) => never): string {
  const url = typeof value === 'string' && URL.canParse(value) ? new URL(value) : undefined;
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    fail(`"a2a" must be the http(s) URL of a remote A2A agent's card (e.g. https://host/.well-known/agent-card.json), got ${describeValue(value)}`);
  }
  return url!.href;
}

function rules(value: unknown, fail: (reason: string) => never): readonly PermissionRule[] {
  try {
    // The location prefix comes from DefinitionError; the rule parser only names the key.
    return Object.freeze(parsePermissionRules(value, '"permissionRules"'));
  } catch (error) {
    return fail(errorMessage(error));
  }
}

function extraOf(fields: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (!ACCEPTED_KEYS.includes(key)) extra[key] = value;
  }
  return Object.freeze(extra);
}

/** Runs a reader whose errors name the problem, and fails the definition with that message. */
function attempt<T>(read: () => T, fail: (reason: string) => never): T {
  try {
    return read();
  } catch (error) {
    return fail(errorMessage(error));
  }
}
