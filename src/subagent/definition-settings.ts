import type { ModelSettings } from '../model/model-settings.js';

/** Front-matter keys of model settings (snake_case, as in the wire format and opencode), and their setting. */
export const SETTING_KEYS: Readonly<Record<string, keyof ModelSettings>> = Object.freeze({
  temperature: 'temperature',
  top_p: 'topP',
  max_tokens: 'maxTokens',
  tool_choice: 'toolChoice',
  parallel_tool_calls: 'parallelToolCalls',
  context_window: 'contextWindow',
});

// Worded as the library words model settings (checkModelSettings): the bare key, the value as JSON.
const worded = (description: string) => ({ description, errorMessage: '{in}{name} must be {description}, got {json}' }) as const;

/** The shape of each model setting (what `checkModelSettings` takes), for the front matter's schema. */
export const SETTING_SCHEMAS = {
  temperature: { type: 'number', minimum: 0, maximum: 2, ...worded('a number from 0 to 2') },
  topP: { type: 'number', minimum: 0, maximum: 1, ...worded('a number from 0 to 1') },
  maxTokens: { type: 'integer', minimum: 1, ...worded('a whole number of at least 1') },
  toolChoice: {
    anyOf: [{ enum: ['auto', 'required', 'none'] }, { type: 'object', required: ['name'], properties: { name: { type: 'string', description: 'the name of the tool to call' } } }],
    ...worded('"auto", "required", "none" or { name }'),
  },
  parallelToolCalls: { type: 'boolean', ...worded('true or false') },
  contextWindow: { type: 'integer', minimum: 256, ...worded('a whole number of tokens, at least 256') },
} as const satisfies Record<keyof ModelSettings, object>;

/**
 * A definition's model settings, already checked against the front matter's schema: the
 * front-matter keys of {@link SETTING_KEYS}, or (from code) a `settings` object in the
 * library's camelCase (the schema allows one way only). Undefined when none is set; `null`
 * counts as absent, as everywhere in front matter.
 */
export function definitionSettings(fields: Readonly<Record<string, unknown>>): ModelSettings | undefined {
  const given = (value: unknown): boolean => value !== undefined && value !== null;
  const fromKeys = Object.entries(SETTING_KEYS).filter(([key]) => given(fields[key])).map(([key, setting]) => [setting, fields[key]]);
  if (fromKeys.length > 0) return Object.freeze(Object.fromEntries(fromKeys) as ModelSettings);
  return given(fields['settings']) ? Object.freeze({ ...(fields['settings'] as ModelSettings) }) : undefined;
}
