import OpenAI from 'openai';

/**
 * An `openai` client as every side of a benchmark uses it: no retries. `fetch` lets a
 * caller watch the requests.
 */
export function benchClient(baseURL: string, fetch?: typeof globalThis.fetch): OpenAI {
  return new OpenAI({ baseURL, apiKey: 'bench', maxRetries: 0, ...(fetch ? { fetch } : {}) });
}
