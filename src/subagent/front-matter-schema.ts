import { configValidator, type ConfigProblem } from '../validation/config-validator.js';
import { SETTING_KEYS } from './definition-settings.js';

const bool = { type: 'boolean', description: 'true or false' } as const;
// Read by their own readers, which word their own messages: a tool list is a list or a comma
// string, rules and settings have their own schemas, `name` wants a hint about quotes...
const readElsewhere = {} as const;

/**
 * The front matter of an agent definition, written once, in our spelling (other frameworks'
 * spellings are renamed to these keys first): every key a definition understands, in order,
 * and for the plain values what they must be (`description`, which the message quotes).
 * Add a key here and it is known, accepted, and checked. Solon's `primary` is the last entry.
 */
export const FRONT_MATTER_SCHEMA = {
  type: 'object',
  properties: {
    name: readElsewhere,
    description: readElsewhere,
    tools: readElsewhere,
    disallowedTools: readElsewhere,
    model: { type: 'string', pattern: '\\S', description: 'a model name (a non-empty string)' },
    maxSteps: { type: 'integer', minimum: 1, description: 'a positive integer' },
    tokenBudget: { type: 'integer', minimum: 1, description: 'a positive integer (tokens)' },
    mode: readElsewhere,
    color: { type: 'string', pattern: '\\S', description: 'a colour name or "#rrggbb" (a non-empty string, quoted when it starts with #)' },
    override: bool,
    hidden: bool,
    enabled: bool,
    permissionRules: readElsewhere,
    settings: readElsewhere,
    skills: readElsewhere,
    a2a: readElsewhere,
    ...Object.fromEntries(Object.keys(SETTING_KEYS).map((key) => [key, readElsewhere])),
    primary: bool,
  },
} as const;

const check = configValidator(FRONT_MATTER_SCHEMA);

/**
 * The first plain value of `fields` (in our spelling; `null` counts as absent) that is not
 * what {@link FRONT_MATTER_SCHEMA} says it must be, worded with the key as the file spells it:
 * `"max_turns" must be a positive integer, got the string "30"`. `undefined` when all fit.
 */
export function frontMatterProblem(
  fields: Readonly<Record<string, unknown>>,
  spelled: (key: string) => string,
  describe: (value: unknown) => string,
): string | undefined {
  const given = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined && value !== null));
  const order = Object.keys(FRONT_MATTER_SCHEMA.properties);
  const problems = check(given).filter((p): p is ConfigProblem & { path: readonly [string] } => p.path.length === 1);
  const [first] = problems.sort((a, b) => order.indexOf(a.path[0]) - order.indexOf(b.path[0]));
  if (first === undefined) return undefined;
  return `"${spelled(first.path[0])}" must be ${String(first.schema.description)}, got ${describe(first.value)}`;
}
