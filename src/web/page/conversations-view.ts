import { element, show, type DomElement } from './dom.js';
import type { ChatMessage, SessionSummary } from './client-imports.js';
import { label, showLong } from './long-text.js';

/**
 * The side list of conversations (newest activity first; a click opens one) and the earlier
 * turns of the open one: each prompt and the answer the model gave it.
 */
export class ConversationsView {
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

  /** Shows the turns of a conversation: the prompts and the model's answers (tool traffic left out). */
  drawTranscript(messages: readonly ChatMessage[]): void {
    const turns = messages.filter((m) => (m.role === 'user' || m.role === 'assistant') && typeof m.content === 'string' && m.content.trim() !== '');
    this.transcript.replaceChildren(
      ...turns.map((message) => {
        const li = element('li', `turn ${message.role}`);
        showLong(li, message.content ?? '');
        return li;
      }),
    );
    this.transcript.hidden = turns.length === 0;
  }
}
