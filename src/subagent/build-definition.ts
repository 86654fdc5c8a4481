import { parsePermissionRules, type PermissionRule } from '../permission/index.js';
import { AGENT_NAME_PATTERN, type AgentDefinition, type AgentOrigin } from './agent-definition.js';
import { DefinitionError } from './definition-error.js';
import { readRole } from './definition-role.js';
import { definitionSettings } from './definition-settings.js';
import { FRONT_MATTER_SCHEMA, frontMatterProblem } from './front-matter-schema.js';
import { KEY_ALIASES, renameAliases } from './key-aliases.js';
import { misspeltKeyWarnings, wideningTypo } from './misspelt-keys.js';
import { expandToolAliases } from './tool-aliases.js';
import { readSkillNames } from './skills/skill-names.js';
import { describeValue, toToolList } from './value-checks.js';
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
  const problem = frontMatterProblem(fields, spelled, describeValue);
  if (problem !== undefined) fail(problem);

  const definition: { -readonly [K in keyof AgentDefinition]: AgentDefinition[K] } = {
    name,
    description,
    systemPrompt: prompt,
    hidden: present('hidden') ? (fields['hidden'] as boolean) : false,
    enabled: present('enabled') ? (fields['enabled'] as boolean) : true,
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
  // The schema checked these (frontMatterProblem above).
  if (present('model')) definition.model = (fields['model'] as string).trim();
  if (present('maxSteps')) definition.maxSteps = fields['maxSteps'] as number;
  if (present('tokenBudget')) definition.tokenBudget = fields['tokenBudget'] as number;
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
