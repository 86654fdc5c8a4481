/**
 * An id as one segment of a request's path.
 *
 * @module
 */

/**
 * `id` percent-encoded as one path segment, or a `TypeError` when it cannot be one. `.` and
 * `..` are dot segments (`encodeURIComponent` leaves `.` as it is; a `%2e` spelling is sent
 * as `%252e`, no dot segment): `fetch` resolves them before it sends, so `cancelTask(base, run, '..')` would become
 * `DELETE <base>/runs/<run>`, cancelling the whole run, and an approval id `..` would post to
 * the run itself. An empty id names the list above it. No id a server gives is any of these:
 * one that is came from somewhere else (a hostile stream, a link) and is refused before any
 * request is sent.
 *
 * @example
 * ```ts
 * idSegment('taskId', 'task_1/2'); // 'task_1%2F2'
 * idSegment('taskId', '..'); // throws TypeError
 * ```
 */
export function idSegment(name: string, id: string): string {
  if (typeof id !== 'string' || id === '' || id === '.' || id === '..') {
    const shown = typeof id === 'string' ? JSON.stringify(id) : typeof id;
    throw new TypeError(`${name} must be an id the server gave, not ${shown}: "", "." and ".." name another address than the one meant`);
  }
  return encodeURIComponent(id);
}
