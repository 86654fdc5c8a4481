import { checkModelSettings, type ModelSettings } from '../model/model-settings.js';

/** Front-matter keys of model settings (snake_case, as in the wire format and opencode), and their setting. */
export const SETTING_KEYS: Readonly<Record<string, keyof ModelSettings>> = Object.freeze({
  temperature: 'temperature',
  top_p: 'topP',
  max_tokens: 'maxTokens',
  tool_choice: 'toolChoice',
  parallel_tool_calls: 'parallelToolCalls',
  context_window: 'contextWindow',
});

/**
 * A definition's model settings: the front-matter keys of {@link SETTING_KEYS}, or (from
 * code) a `settings` object in the library's camelCase; not both. Undefined when none is set.
 * `null` counts as absent, as everywhere in front matter.
 *
 * @throws Error whose message names the key and what it takes (the caller adds the file).
 */
export function definitionSettings(fields: Readonly<Record<string, unknown>>): ModelSettings | undefined {
  const fromKeys: Record<string, unknown> = {};
  for (const [key, setting] of Object.entries(SETTING_KEYS)) {
    if (fields[key] !== undefined && fields[key] !== null) fromKeys[setting] = fields[key];
  }
  const object = fields['settings'];
  const hasKeys = Object.keys(fromKeys).length > 0;
  if (object !== undefined && object !== null && hasKeys) throw new Error('give model settings either as "settings" or as their own keys (temperature, top_p...), not both');
  if (!hasKeys && (object === undefined || object === null)) return undefined;
  try {
    return Object.freeze({ ...checkModelSettings(hasKeys ? fromKeys : object, 'settings') });
  } catch (error) {
    const message = error instanceof Error ? error.message.replace(/^settings: /, '') : String(error);
    // Name the keys as the file spells them.
    throw new Error(hasKeys ? message.replace(/\b(topP|maxTokens|toolChoice|parallelToolCalls|contextWindow)\b/g, (m) => snakeOf(m)) : `"settings": ${message}`);
  }
}

function snakeOf(setting: string): string {
  return Object.entries(SETTING_KEYS).find(([, s]) => s === setting)?.[0] ?? setting;
}
