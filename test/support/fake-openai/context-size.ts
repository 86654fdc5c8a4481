import type { ServerResponse } from 'node:http';
import type { JsonObject } from '../../../src/events/json.js';
import type { FakeRequestBody } from './types.js';
import { estimateUsage } from './usage-estimate.js';

/**
 * Answers llama.cpp's `GET /props` as llama-server does (the context of one slot in
 * `default_generation_settings.n_ctx`), or 404 when the fake server has no `contextSize`.
 * Such requests are not recorded: `requests` stays the chat completions a test scripted.
 */
export function answerProps(res: ServerResponse, contextSize: number | undefined): void {
  const body = contextSize === undefined ? { error: { code: 404, message: 'File Not Found', type: 'not_found_error' } } : { default_generation_settings: { n_ctx: contextSize }, total_slots: 1 };
  res.writeHead(contextSize === undefined ? 404 : 200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/**
 * llama.cpp's refusal of a prompt longer than the context (HTTP 400), when `body`'s prompt
 * (as `estimateUsage` counts it: its JSON, four characters a token) is over `contextSize`;
 * `undefined` when it fits.
 */
export function contextRefusal(body: FakeRequestBody, contextSize: number | undefined): JsonObject | undefined {
  if (contextSize === undefined) return undefined;
  const prompt = estimateUsage(body, {}).prompt_tokens;
  if (prompt <= contextSize) return undefined;
  return {
    error: {
      code: 400,
      message: `request (${prompt} tokens) exceeds the available context size (${contextSize} tokens), try increasing it`,
      type: 'exceed_context_size_error',
      n_prompt_tokens: prompt,
      n_ctx: contextSize,
    },
  };
}
