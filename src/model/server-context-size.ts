/** How long the `/props` lookup may take before the window counts as unknown. */
const PROPS_TIMEOUT_MS = 5_000;

/**
 * The context window a llama.cpp server announces at `GET <root>/props` (its root: the
 * `baseURL` without a trailing `/v1`): `default_generation_settings.n_ctx`, the tokens of
 * one slot, or a top-level `n_ctx`. `undefined` when the server has no such endpoint (OpenAI,
 * vLLM, Ollama), answers something else, or does not answer within 5 s: never an error, since
 * the window is then learned from a context-exceeded error instead.
 *
 * @example
 * ```ts
 * await serverContextSize('http://127.0.0.1:8080/v1'); // 4096
 * ```
 */
export async function serverContextSize(baseURL: string, apiKey?: string): Promise<number | undefined> {
  const root = baseURL.replace(/\/+$/, '').replace(/\/v1$/, '');
  const headers: Record<string, string> = apiKey ? { authorization: `Bearer ${apiKey}` } : {};
  try {
    const response = await fetch(`${root}/props`, { headers, signal: AbortSignal.timeout(PROPS_TIMEOUT_MS) });
    if (!response.ok) {
      await response.body?.cancel();
      return undefined;
    }
    const props = (await response.json()) as { default_generation_settings?: { n_ctx?: unknown }; n_ctx?: unknown };
    return positive(props?.default_generation_settings?.n_ctx) ?? positive(props?.n_ctx);
  } catch {
    return undefined;
  }
}

function positive(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}
