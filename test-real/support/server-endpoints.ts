/**
 * llama-server's own endpoints the checks use besides chat completions: `/slots` (is a slot
 * still generating?), `/apply-template` (the prompt a template renders from messages) and
 * `/tokenize`.
 *
 * @module
 */
import { setTimeout as delay } from 'node:timers/promises';

/** One entry of `/slots`, the fields read here. */
export interface Slot {
  readonly id: number;
  readonly is_processing: boolean;
  readonly next_token?: ReadonlyArray<{ readonly n_decoded?: number }> | null;
}

/** The server's slots now. */
export async function slots(url: string): Promise<Slot[]> {
  const response = await fetch(`${url}/slots`);
  if (!response.ok) throw new Error(`GET ${url}/slots answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as Slot[];
}

/** Tokens generated so far by the busiest slot that is processing, or 0. */
export function decoding(all: readonly Slot[]): number {
  return Math.max(0, ...all.filter((s) => s.is_processing).map((s) => s.next_token?.[0]?.n_decoded ?? 0));
}

/** Polls `/slots` every `everyMs` until `test` holds; rejects with `what` after `timeoutMs`. */
export async function waitForSlots(url: string, test: (all: Slot[]) => boolean, what: string, timeoutMs = 20_000, everyMs = 10): Promise<Slot[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const all = await slots(url);
    if (test(all)) return all;
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${what}; /slots: ${JSON.stringify(all)}`);
    await delay(everyMs);
  }
}

/** The prompt `messages` render to under the server's template (throws with the server's answer on an error). */
export async function applyTemplate(url: string, messages: readonly unknown[]): Promise<string> {
  const response = await fetch(`${url}/apply-template`, { method: 'POST', body: JSON.stringify({ messages }) });
  const body = await response.text();
  if (!response.ok) throw new Error(`POST ${url}/apply-template answered ${response.status}: ${body}`);
  return (JSON.parse(body) as { prompt: string }).prompt;
}

/** The id of the first token `text` is split into by the server's tokenizer. */
export async function firstToken(url: string, text: string): Promise<number> {
  const response = await fetch(`${url}/tokenize`, { method: 'POST', body: JSON.stringify({ content: text }) });
  const { tokens } = (await response.json()) as { tokens: number[] };
  if (tokens[0] === undefined) throw new Error(`the server split "${text}" into no tokens`);
  return tokens[0];
}
