import type { ServerResponse } from 'node:http';
import { DEFAULT_DRAIN_TIMEOUT_MS, destroyUnlessDrained } from './drain-deadline.js';
import { frameBatch } from './sse-frame-batch.js';
import { writeSseText } from './write-sse-text.js';

/** How many characters of waiting frames one write on `'drain'` takes: a socket buffer's worth. */
const WRITE_CHARS = 16 * 1024;

/** Writes server-sent-event frames to a response without writing past a full socket. */
export interface SseWriter {
  /** True while frames wait for the socket's `'drain'`. */
  readonly blocked: boolean;
  /**
   * Writes a frame, or queues it while the socket is full. Returns `false` when the queue
   * has grown past its bound: the client is too slow, and the caller should cut it.
   */
  write(frame: string): boolean;
  /**
   * Ends the response with `last` once every queued frame is written; a client that has not
   * taken it all within the drain timeout is cut (the response destroyed).
   */
  end(last: string): void;
}

/**
 * A writer for `res` that honours backpressure: once `res.write` returns `false`, frames wait
 * in a queue, in order, and go out on `'drain'`. RxJS cannot pause a run, so the queue is
 * the only place a slow client's backlog can go; `maxQueuedBytes` bounds it (UTF-8 bytes).
 * While the socket takes them, the frames of one turn go out in one `res.write`
 * (`frameBatch`); the queue's frames, on `'drain'`, in writes of up to 16 KiB.
 * Once `end` is called, the client has `drainTimeoutMs` to take the rest, queue and socket
 * alike (`destroyUnlessDrained`); the queue is under its bound then, so only this ends a
 * client that stopped reading.
 */
export function sseWriter(res: ServerResponse, maxQueuedBytes: number, drainTimeoutMs = DEFAULT_DRAIN_TIMEOUT_MS): SseWriter {
  const frames: string[] = [];
  const sizes: number[] = [];
  let head = 0;
  let queuedBytes = 0;
  let blocked = false;
  let last: string | undefined;
  let ending = false;

  const endNow = (frame: string): void => {
    res.off('drain', flush);
    if (!res.writableEnded && !res.destroyed) res.end(frame);
  };
  const batch = frameBatch((text) => {
    if (!res.writableEnded && !res.destroyed) blocked = !writeSseText(res, text);
  });
  function flush(): void {
    blocked = false;
    while (head < frames.length && !blocked) {
      // the waiting frames in writes of about a socket buffer each: few writes, and a full
      // socket is still noticed after about one buffer (the rest stays counted in the queue)
      let text = '';
      while (head < frames.length && text.length < WRITE_CHARS) {
        text += frames[head]!;
        queuedBytes -= sizes[head]!;
        head += 1;
      }
      blocked = !writeSseText(res, text);
    }
    if (head === frames.length) {
      // drop the written frames in one go rather than shifting the arrays one by one
      frames.length = 0;
      sizes.length = 0;
      head = 0;
    }
    if (!blocked && last !== undefined) endNow(last);
  }
  res.on('drain', flush);
  res.once('close', () => res.off('drain', flush));

  return {
    get blocked() {
      return blocked;
    },
    write(frame) {
      if (res.writableEnded || res.destroyed) return true;
      if (!blocked) {
        batch.add(frame);
        return true;
      }
      const size = Buffer.byteLength(frame);
      frames.push(frame);
      sizes.push(size);
      queuedBytes += size;
      return queuedBytes <= maxQueuedBytes;
    },
    end(frame) {
      if (blocked) last = frame;
      else endNow(batch.take() + frame);
      // one deadline from the first end: a second call must not push it back
      if (!ending) destroyUnlessDrained(res, drainTimeoutMs);
      ending = true;
    },
  };
}
