import { lastValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { ChatRequest, ModelFinish, ToolSpec } from '../../src/model/chat-model.js';
import { estimateRequestTokens } from '../../src/model/estimate-tokens.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';

/** A tool whose schema outweighs the messages, as real tool lists do. */
const bulky: ToolSpec = {
  name: 'bulky',
  description: 'A tool with a long description. '.repeat(40),
  parameters: { type: 'object', properties: { path: { type: 'string', description: 'x'.repeat(400) } } },
};
const request: ChatRequest = { messages: [{ role: 'user', content: 'hello' }], tools: [bulky] };

describe("the prompt tokens ScriptedModel makes up when a reply scripts none", () => {
  it('counts the tool schemas sent with the request, as the estimate of a whole request does', async () => {
    const finish = (await lastValueFrom(new ScriptedModel([{ text: 'ok' }]).stream(request))) as ModelFinish;
    expect(finish.usage?.promptTokens).toBe(estimateRequestTokens(request));
    expect(finish.usage?.promptTokens).toBeGreaterThan(estimateRequestTokens({ messages: request.messages }) + 100);
  });

  it('keeps a scripted prompt count as it is', async () => {
    const finish = (await lastValueFrom(new ScriptedModel([{ text: 'ok', usage: { promptTokens: 7 } }]).stream(request))) as ModelFinish;
    expect(finish.usage).toMatchObject({ promptTokens: 7, totalTokens: 7 + finish.usage!.completionTokens });
  });
});
