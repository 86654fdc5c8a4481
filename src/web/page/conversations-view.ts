import { element, show, type DomElement } from './dom.js';
import type { ChatMessage, SessionSummary } from './client-imports.js';
import { label, showLong } from './long-text.js';
import { showEarlier } from './show-earlier.js';

/** The most turns the transcript draws at first, and how many more each "show earlier" adds. */
export const TURNS_SHOWN = 100;

/**
 * The side list of conversations (newest activity first; a click opens one) and the earlier
 * turns of the open one: each prompt and the answer the model gave it. Only the last
 * {@link TURNS_SHOWN} turns are drawn, with a button for earlier ones: 2,000 turns of 10 KB
 * drawn at once took 23 s and put the prompt box millions of pixels down.
 */
export class ConversationsView {
  /** The open conversation's turns, all of them; the last ones are drawn (`#drawn`). */
  #turns: readonly ChatMessage[] = [];
  /** The drawn turns' items, in order. */
  #drawn: DomElement[] = [];
  /** The transcript's first item: the button that draws earlier turns, while there are some. */
  readonly #earlier = showEarlier('earlier-turns', 'turns', TURNS_SHOWN, () => this.#drawEarlier(TURNS_SHOWN));

  constructor(
    private readonly list: DomElement,
    private readonly note: DomElement,
    private readonly transcript: DomElement,
    private readonly open: (sessionId: string) => void,
  ) {}

  /** Shows the conversations, marking the open one. */
  drawList(sessions: readonly SessionSummary[], current: string | undefined): void {
    show(this.note, sessions.length === 0 ? 'No conversations yet.' : '');
    this.list.replaceChildren(
      ...sessions.map((session) => {
        const li = element('li', session.sessionId === current ? 'session current' : 'session');
        li.dataset.sessionId = session.sessionId;
        const title = element('span', 'title');
        show(title, label(session.title || session.sessionId));
        title.title = label(session.title);
        const when = element('span', 'when');
        show(when, new Date(session.lastActivityAt).toLocaleString());
        li.append(title, when);
        li.addEventListener('click', () => this.open(session.sessionId));
        return li;
      }),
    );
  }

  /** Says why there is no list (a store that cannot list, a lost server). */
  unavailable(reason: string): void {
    this.list.replaceChildren();
    show(this.note, reason);
  }

  /** Shows the turns of a conversation: the prompts and the model's answers (tool traffic left out); the last {@link TURNS_SHOWN} of them. */
  drawTranscript(messages: readonly ChatMessage[]): void {
    this.#turns = messages.filter((m) => (m.role === 'user' || m.role === 'assistant') && typeof m.content === 'string' && m.content.trim() !== '');
    this.#drawn = [];
    this.#drawEarlier(TURNS_SHOWN);
    this.transcript.hidden = this.#turns.length === 0;
  }

  /** Draws up to `count` more turns before the ones drawn (the button's say, or the last ones of a new transcript). */
  #drawEarlier(count: number): void {
    const to = this.#turns.length - this.#drawn.length;
    const from = Math.max(0, to - count);
    const earlier = this.#turns.slice(from, to).map((message) => {
      const li = element('li', `turn ${message.role}`);
      showLong(li, message.content ?? '');
      return li;
    });
    this.#drawn = [...earlier, ...this.#drawn];
    this.#earlier.update(from);
    this.transcript.replaceChildren(this.#earlier.item, ...this.#drawn);
  }
}
