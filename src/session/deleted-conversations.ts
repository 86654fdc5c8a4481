/** How many deleted sessions a store remembers (beyond that, the oldest is forgotten: a save for it is taken again). */
const MAX_DELETED = 10_000;

/**
 * The sessions a `FileSessionStore` was asked to delete in this process and that have not been
 * written since, so that a task saved for one of them as its conversation (a save asked after
 * the delete) is refused rather than left behind: it would outlive its conversation, which a
 * new conversation of the id would then own and could resume. Noted as the calls are asked,
 * in the order the store's queues run them: a delete marks the id, an append or a compaction
 * of it (a new conversation taking the id, which a run writes before it starts any task) clears it.
 */
export class DeletedConversations {
  private readonly ids = new Set<string>();

  /** Notes that `sessionId` is being deleted. */
  deleted(sessionId: string): void {
    this.ids.delete(sessionId);
    if (this.ids.size >= MAX_DELETED) this.ids.delete(this.ids.values().next().value!);
    this.ids.add(sessionId);
  }

  /** Notes that `sessionId` is being written (anew, when it was deleted). */
  written(sessionId: string): void {
    this.ids.delete(sessionId);
  }

  /** Whether `sessionId` was deleted and not written since. */
  has(sessionId: string): boolean {
    return this.ids.has(sessionId);
  }
}
