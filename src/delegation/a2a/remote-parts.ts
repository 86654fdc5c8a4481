import type { Part } from '@a2a-js/sdk';

/** The text of `parts`: their text parts, joined (file and data parts have none to show). */
export function textOf(parts: readonly Part[] | undefined): string {
  return (parts ?? []).map((part) => (part.content?.$case === 'text' ? part.content.value : '')).join('');
}

/**
 * What `parts` cost against a remote task's `maxChars`: a text part its length, a data part
 * the length of its JSON, a file part its bytes (`raw`) or its URL's length. None is shown,
 * but each was read and parsed: left out, a remote could send 25,000 updates of 4 MiB of
 * data each, all within the bound.
 */
export function partsChars(parts: readonly Part[] | undefined): number {
  let chars = 0;
  for (const part of parts ?? []) chars += partChars(part);
  return chars;
}

function partChars(part: Part): number {
  const content = part.content;
  switch (content?.$case) {
    case 'text':
    case 'url':
    case 'raw': // its bytes
      return content.value.length;
    case 'data':
      // JSON.stringify(undefined) is undefined; a value parsed from JSON always stringifies.
      return (JSON.stringify(content.value) as string | undefined)?.length ?? 0;
    default:
      return 0;
  }
}
