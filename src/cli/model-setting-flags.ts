import type { ModelSettings } from '../model/model-settings.js';
import type { OpenAIChatModelOptions } from '../model/openai-chat-model.js';
import { CliUsageError } from './cli-usage-error.js';
import { durationFlag } from './duration-flag.js';
import { integerFlag } from './integer-flag.js';

/** The model's request settings and retries, for `run`, `serve` and `worker` alike. */
export const MODEL_SETTING_FLAGS = {
  'max-tokens': { type: 'string' },
  temperature: { type: 'string' },
  'tool-choice': { type: 'string' },
  'context-window': { type: 'string' },
  'extra-body': { type: 'string' },
  'max-retries': { type: 'string' },
  'retry-budget': { type: 'string' },
} as const;

/** Parsed {@link MODEL_SETTING_FLAGS}. */
export interface ModelSettingFlagValues {
  readonly 'max-tokens'?: string | undefined;
  readonly temperature?: string | undefined;
  readonly 'tool-choice'?: string | undefined;
  readonly 'context-window'?: string | undefined;
  readonly 'extra-body'?: string | undefined;
  readonly 'max-retries'?: string | undefined;
  readonly 'retry-budget'?: string | undefined;
}

/** What the flags set on an `OpenAIChatModel`. */
export type ModelSettingOptions = Pick<OpenAIChatModelOptions, 'settings' | 'extraBody' | 'maxRetries' | 'retryBudgetMs'>;

/**
 * The model options the flags set, checked: a bad value is a {@link CliUsageError} naming the
 * flag, what it takes and an example, thrown before anything starts.
 *
 * @example
 * ```ts
 * modelSettingsFromFlags({ 'max-tokens': '800', 'extra-body': '{"logit_bias":{"2":5}}' });
 * ```
 */
export function modelSettingsFromFlags(values: ModelSettingFlagValues): ModelSettingOptions {
  const settings: { -readonly [K in keyof ModelSettings]: ModelSettings[K] } = {};
  if (values['max-tokens'] !== undefined) settings.maxTokens = integerFlag('--max-tokens', values['max-tokens'], 1);
  if (values.temperature !== undefined) settings.temperature = temperature(values.temperature);
  if (values['tool-choice'] !== undefined) settings.toolChoice = toolChoice(values['tool-choice']);
  if (values['context-window'] !== undefined) settings.contextWindow = integerFlag('--context-window', values['context-window'], 256);
  return {
    ...(Object.keys(settings).length > 0 ? { settings } : {}),
    ...(values['extra-body'] !== undefined ? { extraBody: extraBody(values['extra-body']) } : {}),
    ...(values['max-retries'] !== undefined ? { maxRetries: integerFlag('--max-retries', values['max-retries'], 0) } : {}),
    ...(values['retry-budget'] !== undefined ? { retryBudgetMs: durationFlag('--retry-budget', values['retry-budget']) } : {}),
  };
}

/** The flags of {@link MODEL_SETTING_FLAGS} that were given, as typed (for "--demo takes none of these"). */
export function givenModelSettingFlags(values: ModelSettingFlagValues): string[] {
  return Object.keys(MODEL_SETTING_FLAGS).filter((k) => values[k as keyof ModelSettingFlagValues] !== undefined).map((k) => `--${k}`);
}

function temperature(raw: string): number {
  const value = Number(raw);
  if (!/^\s*\d+(?:\.\d+)?\s*$/.test(raw) || value > 2) throw new CliUsageError(`--temperature must be a number from 0 to 2, e.g. 0.2, got "${raw}"`);
  return value;
}

function toolChoice(raw: string): ModelSettings['toolChoice'] {
  if (raw === 'auto' || raw === 'required' || raw === 'none') return raw;
  const named = /^tool:([A-Za-z0-9_.:-]+)$/.exec(raw);
  if (named) return { name: named[1]! };
  throw new CliUsageError(`--tool-choice must be auto, required, none or tool:NAME (that tool, e.g. tool:read), got "${raw}"`);
}

function extraBody(raw: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (e) {
    throw new CliUsageError(`--extra-body must be a JSON object, e.g. '{"logit_bias":{"2":5}}', but it is not JSON (${(e as Error).message})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new CliUsageError(`--extra-body must be a JSON object, e.g. '{"logit_bias":{"2":5}}', got ${Array.isArray(value) ? 'a list' : String(JSON.stringify(value))}`);
  }
  // Deeper, JSON.stringify overflows its stack at every request, and the run blames the response.
  if (depthOf(value) > MAX_EXTRA_BODY_DEPTH) throw new CliUsageError(`--extra-body is nested more than ${MAX_EXTRA_BODY_DEPTH} levels deep; a request's extra fields need far fewer`);
  // These are the harness's own (and the body puts them after the extra fields anyway): say so rather than ignore them.
  const owned = Object.keys(value).filter((k) => ['model', 'messages', 'stream', 'stream_options', 'tools'].includes(k));
  if (owned.length) throw new CliUsageError(`--extra-body cannot set ${owned.join(', ')}: the harness sends those itself`);
  return value as Record<string, unknown>;
}

/** The deepest an `--extra-body` nests (the outer object is level 1). */
const MAX_EXTRA_BODY_DEPTH = 64;

/** How deep objects and lists nest in `value` (a leaf is 0), counted without recursion. */
function depthOf(value: unknown): number {
  let deepest = 0;
  const pending: Array<[unknown, number]> = [[value, 1]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [item, depth] = next;
    if (typeof item !== 'object' || item === null) continue;
    deepest = Math.max(deepest, depth);
    if (depth <= MAX_EXTRA_BODY_DEPTH) for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
  return deepest;
}
