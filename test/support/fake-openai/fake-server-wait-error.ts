/** A `waitFor*` call of the fake server timed out, or the server closed while it waited. */
export class FakeServerWaitError extends Error {
  override readonly name = 'FakeServerWaitError';
}
