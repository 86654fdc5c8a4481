/**
 * `maxConcurrentRequests` wraps every model of an engine (`requestLimiter().wrap`). The
 * built-in model's reader marks what a failed reply brought on its error, and a step counts
 * the deltas only of a model that does not (`marksPartialReplies`): the wrapper must carry
 * that registration, or each step under the limit counts every delta a second time.
 */
import { EMPTY } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { ChatModel } from '../../src/model/chat-model.js';
import { requestLimiter } from '../../src/model/limit-requests.js';
import { OpenAIChatModel } from '../../src/model/openai-chat-model.js';
import { marksPartialReplies } from '../../src/model/partial-reply.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';

const builtIn = (): OpenAIChatModel => new OpenAIChatModel({ model: 'm', baseURL: 'http://127.0.0.1:9/v1', apiKey: 'k' });

describe('a model wrapped by the request limiter', () => {
  it('a wrapped built-in model is seen as marking its failed replies, as it is unwrapped', () => {
    const model = builtIn();
    expect(marksPartialReplies(model)).toBe(true);
    const wrapped = requestLimiter(2).wrap(model);
    expect(wrapped).not.toBe(model);
    expect(marksPartialReplies(wrapped)).toBe(true);
  });

  it('a wrapped user model (or ScriptedModel) is not: its steps still count the deltas', () => {
    const own: ChatModel = { id: 'own', stream: () => EMPTY };
    const limiter = requestLimiter(2);
    expect(marksPartialReplies(limiter.wrap(own))).toBe(false);
    expect(marksPartialReplies(limiter.wrap(new ScriptedModel([])))).toBe(false);
  });

  it('a wrapper of a wrapper carries it too (two limiters), and a subclass that streams its own way is never registered', () => {
    const twice = requestLimiter(1).wrap(requestLimiter(2).wrap(builtIn()));
    expect(marksPartialReplies(twice)).toBe(true);
    class OwnStream extends OpenAIChatModel {
      override stream(...args: Parameters<OpenAIChatModel['stream']>): ReturnType<OpenAIChatModel['stream']> {
        return super.stream(...args);
      }
    }
    const sub = new OwnStream({ model: 'm', baseURL: 'http://127.0.0.1:9/v1', apiKey: 'k' });
    expect(marksPartialReplies(requestLimiter(2).wrap(sub))).toBe(false);
  });
});
