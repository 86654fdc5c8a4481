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
    this.#follower.stop();
    this.#sessionId = id;
    this.display.clear();
    try {
      const details = await getSession(this.api, id);
      this.conversations.drawTranscript(details.messages);
      const going = attach ?? details.runs.find((r) => r.state === 'running')?.runId;
      showAddress(id, going);
      if (going !== undefined) this.#follower.follow(going);
      else setState('idle', 'Write the next prompt to continue this conversation.');
    } catch (error) {
      this.conversations.drawTranscript([]);
      setState('failed', `Could not open the conversation: ${describeFailure(error)}`);
    }
    void this.refreshList();
  }

  /** A new conversation: nothing open until its first run starts. */
  newConversation(): void {
    this.#follower.stop();
    this.#sessionId = undefined;
    this.display.clear();
    this.conversations.drawTranscript([]);
    showAddress(undefined, undefined);
    setState('idle', 'A new conversation: write its first prompt.');
    void this.refreshList();
  }

  /** Starts a run of `prompt` in the open conversation (a new one when none is open) and follows it. */
  async start(prompt: string): Promise<void> {
    this.#follower.unsubscribe();
    setState('running', 'Starting…');
    try {
      // The turns so far move up into the transcript; this run's tree starts empty.
      if (this.#sessionId !== undefined) this.conversations.drawTranscript((await getSession(this.api, this.#sessionId)).messages);
      const started = await startRun(this.api, { prompt, ...(this.#sessionId === undefined ? {} : { sessionId: this.#sessionId }) });
      this.#sessionId = started.sessionId;
      showAddress(this.#sessionId, started.runId);
      this.#follower.follow(started.runId);
      void this.refreshList();
    } catch (error) {
      setState('failed', `Could not start the run: ${describeFailure(error)}`);
    }
  }
}
