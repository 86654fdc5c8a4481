/**
 * A conversation's earlier turns: the last {@link TURNS_SHOWN} are drawn, earlier ones on a
 * click of "show earlier" (2,000 turns of 10 KB drawn at once took 23 s). In an in-memory
 * document (`fake-dom.ts`), then on the page in headless Chromium.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ChatMessage } from '../../../src/model/chat-message.js';
import { ConversationsView, TURNS_SHOWN } from '../../../src/web/page/conversations-view.js';
import { HAS_CHROMIUM } from '../../support/chromium-per-file.js';
import { fakeDocument, FakeElement } from './fake-dom.js';
import { scriptedPagePerTest } from './scripted-page.js';

/** `n` turns, a prompt and its answer each (`u0`, `a0`, `u1`...), with tool traffic between that the transcript leaves out. */
const turns = (n: number): ChatMessage[] =>
  Array.from({ length: n }, (_, i): ChatMessage[] => [{ role: 'user', content: `u${i}` }, { role: 'tool', content: 'tool output', tool_call_id: `t${i}` }, { role: 'assistant', content: `a${i}` }]).flat();
const texts = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `${(from + i) % 2 === 0 ? 'u' : 'a'}${Math.floor((from + i) / 2)}`);

describe('the transcript of a long conversation', () => {
  beforeAll(() => vi.stubGlobal('document', fakeDocument));
  afterAll(() => vi.unstubAllGlobals());
  const drawn = (transcript: FakeElement) => ({
    turns: transcript.children.filter((li) => li.className.startsWith('turn ')).map((li) => li.textContent),
    earlier: transcript.find('earlier-turns')!.hidden ? undefined : transcript.find('show-earlier')!.textContent,
  });

  it('draws the last turns, 100 more on each "show earlier", all of them at last', () => {
    const transcript = new FakeElement('ol');
    const view = new ConversationsView(new FakeElement('ul'), new FakeElement('p'), transcript, () => undefined);
    view.drawTranscript(turns(125)); // 250 turns
    expect(drawn(transcript)).toEqual({ turns: texts(150, 250), earlier: 'Show 100 earlier turns (150 not shown)' });
    transcript.find('show-earlier')!.click();
    expect(drawn(transcript)).toEqual({ turns: texts(50, 250), earlier: 'Show 50 earlier turns (50 not shown)' });
    transcript.find('show-earlier')!.click();
    expect(drawn(transcript)).toEqual({ turns: texts(0, 250), earlier: undefined });
    view.drawTranscript(turns(2)); // another conversation: from its own last turns again
    expect(drawn(transcript)).toEqual({ turns: texts(0, 4), earlier: undefined });
    expect(transcript.hidden).toBe(false);
    view.drawTranscript([]);
    expect(transcript.hidden).toBe(true);
  });
});

const openPage = scriptedPagePerTest();

describe.skipIf(!HAS_CHROMIUM)('the transcript of a long conversation, on the page', () => {
  it('2,000 turns of 10 KB: the last 100 drawn, 100 more on "show earlier"', async () => {
    const long = turns(1_000).map((m) => (m.role === 'tool' ? m : { ...m, content: `${m.content as string} ${'z'.repeat(10_000)}` }));
    const page = await openPage([], { messages: long, address: '?session=ses_1' });
    const shown = page.locator('#transcript .turn');
    await expect.poll(() => shown.count()).toBe(TURNS_SHOWN);
    expect(await shown.last().textContent()).toMatch(/^a999 z/);
    expect(await page.locator('#transcript .show-earlier').textContent()).toBe('Show 100 earlier turns (1,900 not shown)');
    await page.locator('#transcript .show-earlier').click();
    await expect.poll(() => shown.count()).toBe(2 * TURNS_SHOWN);
    expect(await shown.first().textContent()).toMatch(/^u900 z/);
  }, 60_000);
});
