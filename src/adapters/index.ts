// Two shapes (see docs/adapters.md): operators, used in `pipe`, that return an Observable
// (`toUiItems()`, `toNdjson()`, `parseNdjson(options)`, `liveTree(options)`), and sinks,
// which subscribe and take the stream first: `(events$, target, options)`
// (`writeNdjson`, `streamSse`; `toAsyncIterable(events$, options)` has no target).
// `sseHandler(factory, options)` builds a request handler around `streamSse`; the rest are
// pure per-event functions for those who draw their own view.
export type * from './ui-item.js';
export { toUiItem, toUiItems } from './ui-dto.js';
export { toNdjson, writeNdjson, type WriteNdjsonOptions } from './ndjson.js';
export { parseNdjson, type ParseNdjsonOptions } from './parse-ndjson.js';
export { NdjsonParseError } from './ndjson-parse-error.js';
export { streamSse, sseHandler, type SseOptions } from './sse.js';
export { toAsyncIterable, type AsyncIterableOptions } from './async-iterable.js';
export { BufferOverflowError } from './buffer-overflow-error.js';
export * from './terminal-tree/index.js';
