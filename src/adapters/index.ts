export type * from './ui-item.js';
export { toUiItem, toUiItems } from './ui-dto.js';
export { toNdjson, writeNdjson, type WriteNdjsonOptions } from './ndjson.js';
export { parseNdjson, type ParseNdjsonOptions } from './parse-ndjson.js';
export { NdjsonParseError } from './ndjson-parse-error.js';
export { streamSse, sseHandler, type SseOptions } from './sse.js';
export { toAsyncIterable, type AsyncIterableOptions } from './async-iterable.js';
export { BufferOverflowError } from './buffer-overflow-error.js';
export * from './terminal-tree/index.js';
