import { PERMISSION_RULE_SCHEMA } from '../permission/permission-rule.js';
import { firstProblem } from '../validation/schema-message.js';
import { AGENT_NAME_PATTERN } from './agent-definition.js';
import { AGENT_MODES } from './definition-role.js';
import { SETTING_KEYS, SETTING_SCHEMAS } from './definition-settings.js';

const bool = { type: 'boolean', description: 'true or false' } as const;
// A key YAML may load as a number or a boolean when the file meant text (`name: 7`).
const text = { type: 'string', description: 'a string', hint: { types: ['number', 'boolean'], text: 'put it in quotes' } } as const;
const missingOrEmpty = { minLength: '{parent} has no "{name}"' } as const;
// The letters of an agent's or a skill's name (AGENT_NAME_PATTERN).
const NAME_CHARS = '[a-zA-Z0-9_-]';

/**
 * The longest `name` a definition may have. Names and descriptions go whole into the
 * delegation tools' descriptions and the main agent's system prompt, sent with every request
 * of the main agent: a cloned repository's file must not make each request megabytes long.
 */
export const MAX_AGENT_NAME_CHARS = 64;

/** The longest `description` a definition may have (see {@link MAX_AGENT_NAME_CHARS}); the body holds the details. */
export const MAX_AGENT_DESCRIPTION_CHARS = 8192;

/** A list of names, or one comma string of them (`read, grep, glob`). */
const nameList = (what: string, item: object, string: object = {}) =>
  ({ anyOf: [{ type: 'array', items: item }, { type: 'string', ...string }], description: `a list of ${what} names or a comma-separated string` }) as const;

/**
 * The front matter of an agent definition, written once, in our spelling (other frameworks'
 * spellings are renamed to these keys first): every key a definition understands, in order,
 * and the shape of its value, checked by the one validator. Its `description`s are what a
 * message says a value must be, `errorMessage` and `hint` word the rest (MessageAnnotations
 * in src/validation/message-annotations.ts). Add a key here and it is known, accepted, and checked.
 * Solon's `primary` is the last entry.
 */
export const FRONT_MATTER_SCHEMA = {
  type: 'object',
  required: ['name', 'description'],
  properties: {
    name: {
      ...text,
      minLength: 1,
      maxLength: MAX_AGENT_NAME_CHARS,
      pattern: AGENT_NAME_PATTERN.source,
      // No {json} in the long-value message: a diagnostic must not quote kilobytes back.
      errorMessage: {
        ...missingOrEmpty,
        maxLength: `{subject} is longer than ${MAX_AGENT_NAME_CHARS} characters: give the agent a shorter name`,
        pattern: '{subject} must contain only letters, digits, "_" and "-" (got {json})',
      },
    },
    description: {
      ...text,
      minLength: 1,
      maxLength: MAX_AGENT_DESCRIPTION_CHARS,
      pattern: '\\S',
      errorMessage: {
        ...missingOrEmpty,
        maxLength:
          `{subject} is longer than ${MAX_AGENT_DESCRIPTION_CHARS} characters (it is sent with every request of the main agent): ` +
          'say in a few sentences when to use the agent, and move the rest into the body',
        pattern: '{subject} is empty',
      },
    },
    tools: nameList('tool', { type: 'string', description: 'a tool name (a string)' }),
    disallowedTools: nameList('tool', { type: 'string', description: 'a tool name (a string)' }),
    model: { type: 'string', pattern: '\\S', description: 'a model name (a non-empty string)' },
    maxSteps: { type: 'integer', minimum: 1, description: 'a positive integer' },
    tokenBudget: { type: 'integer', minimum: 1, description: 'a positive integer (tokens)' },
    mode: {
      enum: AGENT_MODES,
      description: '"subagent", "primary" or "all"',
      // `mode: fast` is most likely a slip for `model: fast`.
      hint: { types: ['string'], unless: 'model', text: 'to choose a model, the key is "model"' },
    },
    color: { type: 'string', pattern: '\\S', description: 'a colour name or "#rrggbb" (a non-empty string, quoted when it starts with #)' },
    override: bool,
    hidden: bool,
    enabled: bool,
    // Solon's spelling of a rule is renamed to ours before the check (key-aliases.ts).
    permissionRules: {
      type: 'array',
      items: PERMISSION_RULE_SCHEMA,
      description: 'a list of permission rules',
      // As parsePermissionRules words a rule of the engine's options.
      itemSubject: 'Invalid permission rule in {subject} at index {index}',
      errorMessage: { type: '{subject}: expected an array of rules like {tool, action}, got {value}' },
    },
    settings: {
      type: 'object',
      properties: SETTING_SCHEMAS,
      additionalProperties: false,
      description: 'model settings, like { temperature: 0.2, maxTokens: 800 }',
    },
    // A name is a folder of the skills folder: it must not leave it.
    skills: nameList(
      'skill',
      {
        type: 'string',
        pattern: `^\\s*${NAME_CHARS}*\\s*$`,
        description: 'a skill name (a string)',
        errorMessage: { pattern: '{parent} item {json} is not a skill name: use letters, digits, "_" and "-" (the name of its folder)' },
      },
      {
        pattern: `^\\s*${NAME_CHARS}*\\s*(,\\s*${NAME_CHARS}*\\s*)*$`,
        errorMessage: '{subject} must be skill names separated by commas, each of letters, digits, "_" and "-" (the name of its folder), got {value}',
      },
    ),
    a2a: {
      type: 'string',
      format: 'http-url',
      description: "the http(s) URL of a remote A2A agent's card (e.g. https://host/.well-known/agent-card.json)",
    },
    ...Object.fromEntries(Object.entries(SETTING_KEYS).map(([key, setting]) => [key, SETTING_SCHEMAS[setting]])),
    primary: bool,
  },
  // What one key says, another must not contradict.
  allOf: [
    {
      not: { required: ['settings'], anyOf: Object.keys(SETTING_KEYS).map((key) => ({ required: [key] })) },
      errorMessage: 'give model settings either as "settings" or as their own keys (temperature, top_p...), not both',
    },
    {
      not: { required: ['mode', 'primary'] },
      errorMessage: '"mode" and "primary" say the same thing two ways (primary: true is mode: primary); keep one of them',
    },
  ],
} as const;

/**
 * The first problem of `fields` (in our spelling; `null` counts as absent) against
 * {@link FRONT_MATTER_SCHEMA}, worded with each key as the file spells it (`"max_turns" must
 * be a positive integer, got the string "30"`); `undefined` when they fit.
 *
 * @param spelled - how the file spelled the last key of a path (see `renameAliases`)
 * @param holder - what the fields are called: `front matter`, `definition`
 */
export function frontMatterProblem(fields: Readonly<Record<string, unknown>>, spelled: (path: readonly string[]) => string, holder: string): string | undefined {
  const given = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined && value !== null));
  return firstProblem(FRONT_MATTER_SCHEMA, given, { holder, spelled })?.message;
}
