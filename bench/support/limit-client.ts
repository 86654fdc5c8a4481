/**
 * The physical limit of a client on the delegation traffic: what any client must do to read
 * the same responses, and nothing more. A bare `fetch` per request body, its SSE body read
 * with one `TextDecoder` and one linear pass over the lines, each `data:` line's JSON parsed
 * once and its text kept. No client library, no retries, no events, no wrapping.
 *
 * @module
 */

/** Streams one completion to its end and returns its text. */
export async function limitCompletion(url: string, body: string, fetchImpl: typeof fetch = fetch): Promise<string> {
  const response = await fetchImpl(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer bench' },
    body,
  });
  if (!response.ok || !response.body) throw new Error(`limit: HTTP ${response.status}`);
  const decoder = new TextDecoder();
  const text: string[] = [];
  let rest = '';
  for await (const bytes of response.body) {
    const buffer = rest + decoder.decode(bytes, { stream: true });
    let start = 0;
    for (let end = buffer.indexOf('\n', start); end !== -1; end = buffer.indexOf('\n', start)) {
      if (buffer.startsWith('data: ', start) && !buffer.startsWith('data: [DONE]', start)) {
        const chunk = JSON.parse(buffer.slice(start + 6, end)) as { choices?: { delta?: { content?: string } }[] };
        const delta = chunk.choices?.[0]?.delta?.content;
        if (delta) text.push(delta);
      }
      start = end + 1;
    }
    rest = buffer.slice(start);
  }
  return text.join('');
}

/**
 * Replays the request bodies of one delegation run in its order and concurrency: the
 * parent's request, the `workers` children's at once, the parent's last one.
 */
export async function limitRun(baseURL: string, bodies: readonly unknown[], workers: number, fetchImpl: typeof fetch = fetch): Promise<void> {
  const url = `${baseURL.replace(/\/$/, '')}/chat/completions`;
  const send = (body: unknown): Promise<string> => limitCompletion(url, JSON.stringify(body), fetchImpl);
  const [first, ...rest] = bodies;
  await send(first);
  await Promise.all(rest.slice(0, workers).map(send));
  await send(rest[workers]);
}
