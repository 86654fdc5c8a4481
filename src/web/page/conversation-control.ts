/**
 * The page's conversations: listed on the side (`listSessions`), one open at a time with its
 * earlier turns shown above the prompt, and Run continuing it (`startRun` with its
 * `sessionId`). Opening one follows its run still going, if any; the open conversation and
 * run are kept in the address.
 *
 * @module
 */
import { getSession, listSessions, startRun } from './client-imports.js';
import type { ConversationsView } from './conversations-view.js';
import { showAddress } from './page-address.js';
import { describeFailure, setState } from './page-status.js';
import type { RunDisplay } from './run-display.js';
import { RunFollower } from './run-follower.js';

/** How many conversations the side lists. */
const CONVERSATIONS_SHOWN = 50;

/** Opens, starts and continues conversations, and follows their runs. */
export class ConversationControl {
  /** The open conversation; `undefined` until the first run of a new one starts. */
  #sessionId: string | undefined;
  /**
   * Counts the page's moves (a conversation opened, a new one, a run started). An answer that
   * comes after a later move is dropped: two clicks in quick succession got their answers in
   * either order, and the first click's, landing last, showed its conversation while Run went
   * to the second.
   */
  #moves = 0;
  /** Whether the transcript lacks turns: it is not drawn yet, or a run of it was followed since. */
  #transcriptStale = true;
  readonly #follower: RunFollower;

  constructor(
    private readonly api: string,
    private readonly display: RunDisplay,
    private readonly conversations: ConversationsView,
  ) {
    this.#follower = new RunFollower(api, display, {
      started: (sessionId, runId) => {
        if (this.#sessionId === undefined) showAddress((this.#sessionId = sessionId), runId);
      },
      ended: () => void this.refreshList(),
    });
  }

  /** The run the page shows, if any (its tasks' stop buttons, its approvals and Stop act on it). */
  get runId(): string | undefined {
    return this.#follower.runId;
  }

  /** Follows a run by its id alone (`?run=`); its conversation is learned from its start. */
  follow(runId: string): void {
    this.#transcriptStale = true;
    this.#follower.follow(runId);
  }

  /** Lists the conversations, marking the open one. */
  async refreshList(): Promise<void> {
    try {
      // The first page only: the most recent conversations (the server pages the rest).
      this.conversations.drawList(await listSessions(this.api, { limit: CONVERSATIONS_SHOWN }), this.#sessionId);
    } catch (error) {
      this.conversations.unavailable(`No conversation list: ${describeFailure(error)}`);
    }
  }

  /** Opens a conversation: its turns above the prompt, and run `attach` (or else its run still going, if any) followed. */
  async openSession(id: string, attach?: string): Promise<void> {
    const move = ++this.#moves;
    this.#follower.stop();
    this.#sessionId = id;
    this.#transcriptStale = true;
    this.display.clear();
    try {
      const details = await getSession(this.api, id);
      if (move !== this.#moves) return; // the user went on meanwhile: this answer must not take over the page
      this.conversations.drawTranscript(details.messages);
      const going = attach ?? details.runs.find((r) => r.state === 'running')?.runId;
      // a run still going adds turns the transcript has not got yet
      this.#transcriptStale = going !== undefined;
      showAddress(id, going);
      if (going !== undefined) this.#follower.follow(going);
      else setState('idle', 'Write the next prompt to continue this conversation.');
    } catch (error) {
      if (move !== this.#moves) return;
      this.conversations.drawTranscript([]);
      setState('failed', `Could not open the conversation: ${describeFailure(error)}`);
    }
    void this.refreshList();
  }

  /** A new conversation: nothing open until its first run starts. */
  newConversation(): void {
    this.#moves++;
    this.#follower.stop();
    this.#sessionId = undefined;
    this.#transcriptStale = false;
    this.display.clear();
    this.conversations.drawTranscript([]);
    showAddress(undefined, undefined);
    setState('idle', 'A new conversation: write its first prompt.');
    void this.refreshList();
  }

  /**
   * Starts a run of `prompt` in the conversation open when Run was pressed (a new one when
   * none is) and follows it. Should the user open another one before the server answers, the
   * run still goes to the one they pressed Run in, and the page stays where they went.
   */
  async start(prompt: string): Promise<void> {
    const sessionId = this.#sessionId;
    const move = ++this.#moves;
    this.#follower.unsubscribe();
    setState('running', 'Starting…');
    try {
      // The turns so far move up into the transcript (fetched only when a run added some); this run's tree starts empty.
      if (sessionId !== undefined && this.#transcriptStale) {
        const details = await getSession(this.api, sessionId);
        if (move === this.#moves) this.conversations.drawTranscript(details.messages);
      }
      const started = await startRun(this.api, { prompt, ...(sessionId === undefined ? {} : { sessionId }) });
      if (move !== this.#moves) return void this.refreshList();
      this.#sessionId = started.sessionId;
      this.#transcriptStale = true;
      showAddress(this.#sessionId, started.runId);
      this.#follower.follow(started.runId);
      void this.refreshList();
    } catch (error) {
      if (move === this.#moves) setState('failed', `Could not start the run: ${describeFailure(error)}`);
    }
  }
}
