import type { MessageAnnotations } from './message-annotations.js';

/** How a message names the parts of the checked value. */
export interface SubjectWording {
  /** What the whole value is called: `front matter`, `definition`. */
  readonly holder: string;
  /** How the source spelled the last key of `path` (a key renamed before the check: `max_turns`). */
  spelled(path: readonly string[]): string;
  /**
   * `quoted` (default; a document's keys): `"tools" item 2`, `"settings": "topP"`. `code` (options
   * given in code): `` `agentDirs[1]` ``, `` `a2a.idleTimeoutMs` ``.
   */
  readonly names?: 'quoted' | 'code';
}

type Annotated = MessageAnnotations & Readonly<Record<string, unknown>>;

/**
 * The words for the part of `data` at `path`: the holder for the whole; in `quoted` style
 * `"tools" item 2` (an item that is the problem), `"permissionRules" at index 0: "action"` (a
 * part of one), `"settings": "topP"`, or a list's own `itemSubject`; in `code` style
 * `` `models.fast` ``. `length` is the length of the problem's path: only its last part is an "item".
 */
export function subjectWords(path: readonly string[], length: number, schema: object, data: unknown, wording: SubjectWording): string {
  if (path.length === 0) return wording.holder;
  const code = wording.names === 'code';
  let words = code ? wording.spelled(path.slice(0, 1)) : `"${wording.spelled(path.slice(0, 1))}"`;
  let at = (data as Record<string, unknown>)[path[0]!];
  let node = (schema as { properties?: Record<string, Annotated> }).properties?.[path[0]!];
  for (let i = 1; i < path.length; i++) {
    const part = path[i]!;
    if (Array.isArray(at)) {
      const own = node?.itemSubject;
      const plain = code ? `${words}[${part}]` : i === length - 1 ? `${words} item ${Number(part) + 1}` : `${words} at index ${part}`;
      words = own === undefined ? plain : own.replace('{subject}', words).replace('{index}', part);
      node = node?.['items'] as Annotated | undefined;
    } else {
      const key = wording.spelled(path.slice(0, i + 1));
      words += code ? `.${key}` : `: "${key}"`;
      node = (node?.['properties'] as Record<string, Annotated> | undefined)?.[part];
    }
    at = (at as Record<string, unknown> | undefined)?.[part];
  }
  return code ? `\`${words}\`` : words;
}
