/**
 * Models that make the random model call a tool: `tool_choice: "required"` (through
 * `settings.toolChoice`, which rxharness sends only with tools) plus the template's
 * `logit_bias` (through `extraBody`). Only for templates whose `forcing` has a bias.
 *
 * @module
 */
import type { OpenAIChatModel } from '../../src/model/openai-chat-model.js';
import { llamaModel } from './real-engine.js';
import { firstToken } from './server-endpoints.js';
import { EOS, type TemplateProfile } from './templates.js';

/**
 * Room for a whole forced call: one cut by `max_tokens` is worth nothing (and Functionary
 * answers it with an error), see ../shared/llama/README.md.
 */
export const FORCED_MAX_TOKENS = 400;

/** Whether `profile`'s tool calls can be forced. */
export function canForce(profile: TemplateProfile): boolean {
  return 'bias' in profile.forcing;
}

/** Options of {@link forcingModel}. */
export interface ForcingOptions {
  /** Leave out the end-of-sequence bias: the model then calls and calls until `maxTokens` (a long generation to cancel). */
  readonly endless?: boolean;
  /** Default {@link FORCED_MAX_TOKENS}. */
  readonly maxTokens?: number;
}

/**
 * A model on `baseURL` (the server at `serverURL`, maybe through a proxy) that calls `tool`
 * at every step that offers tools.
 */
export async function forcingModel(profile: TemplateProfile, serverURL: string, baseURL: string, tool: string, options: ForcingOptions = {}): Promise<OpenAIChatModel> {
  if (!('bias' in profile.forcing)) throw new Error(`${profile.label} cannot be forced: ${profile.forcing.impossible}`);
  const bias = profile.forcing.bias(await firstToken(serverURL, tool));
  if (options.endless) delete bias[EOS];
  return llamaModel(baseURL, { toolChoice: 'required', maxTokens: options.maxTokens ?? FORCED_MAX_TOKENS }, { logit_bias: bias });
}
