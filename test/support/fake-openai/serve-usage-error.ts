/** `serve-fake-openai` was started wrongly: bad arguments, or a scenario module that is not a handler. */
export class ServeUsageError extends Error {
  override readonly name = 'ServeUsageError';
}
