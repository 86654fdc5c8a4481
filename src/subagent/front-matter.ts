import { load } from 'js-yaml';
import { DefinitionError } from './definition-error.js';
import { describeValue } from '../validation/describe-value.js';
import { isPlainRecord } from './plain-values.js';
import { errorMessage } from '../errors/error-message.js';
import { expandedSize } from '../validation/expanded-size.js';

/** A Markdown file split into its front matter (loaded) and body. */
export interface FrontMatterDocument {
  readonly data: Readonly<Record<string, unknown>>;
  /** Everything after the closing `---` line, with line endings normalised to `\n`. */
  readonly body: string;
}

const FENCE = /^---[ \t]*$/;
/** A `---` line after the first (its line break before it; `\r\n` or `\n` or the end after it). */
const CLOSING_FENCE = /\n---[ \t]*\r?(?=\n|$)/;
const BLANK_OR_COMMENT = /^\s*(#.*)?$/;
/**
 * The most values a front matter may hold once its aliases are expanded. An alias is a
 * reference, so a few lines of `&a [*b, *b, ...]` load fast but make an object whose JSON (as
 * `JSON.stringify(engine.agents.list())` writes it) has billions of values.
 */
const MAX_EXPANDED_NODES = 10_000;

/**
 * How many characters of YAML the front matter of `text` holds (between its `---` lines, line
 * breaks counted), without loading it; 0 when it has none or is not closed (then
 * {@link readFrontMatter} fails before loading anything).
 */
export function frontMatterChars(text: string): number {
  // Searched, not split into lines: a planted file of 256 KiB of empty lines is 256K lines.
  const start = text.startsWith('\uFEFF') ? 1 : 0;
  const firstEnd = text.indexOf('\n', start);
  if (firstEnd < 0 || !FENCE.test(text.slice(start, firstEnd).replace(/\r$/, ''))) return 0;
  const closing = new RegExp(CLOSING_FENCE.source, 'g');
  closing.lastIndex = firstEnd;
  const match = closing.exec(text);
  return match === null ? 0 : match.index - firstEnd;
}

/**
 * Splits `---` front matter off a Markdown text and loads it as YAML. The fence must be the
 * very first line (after an optional BOM); CRLF line endings are fine.
 *
 * @param where - names the text in error messages (usually its file)
 * @throws DefinitionError when there is no front matter, it is not closed, is not valid YAML
 * (the message gives the file line), or is not a mapping.
 */
export function readFrontMatter(text: string, where: string, file?: string): FrontMatterDocument {
  const fail = (reason: string, line?: number): never => {
    throw new DefinitionError(where, reason, { ...(file === undefined ? {} : { file }), ...(line === undefined ? {} : { line }) });
  };
  const lines = linesOf(text);
  if (!FENCE.test(lines[0] ?? '')) {
    fail('has no front matter: the file must start with a "---" line, then YAML (name, description...), then a closing "---" line');
  }
  const close = lines.findIndex((line, index) => index > 0 && FENCE.test(line));
  if (close < 0) fail('front matter is not closed: no "---" line after the opening one');

  const yamlLines = lines.slice(1, close);
  // js-yaml refuses an empty document; an empty front matter simply has no keys.
  const data = yamlLines.every((line) => BLANK_OR_COMMENT.test(line)) ? {} : loadYaml(yamlLines.join('\n'), fail);
  if (expandedSize(data, MAX_EXPANDED_NODES) > MAX_EXPANDED_NODES) {
    // Not only aliases: a planted front matter of 20,000 plain keys is refused here too.
    fail(
      `front matter expands to more than ${MAX_EXPANDED_NODES} values (too many keys or list items, or YAML aliases repeating aliases, ` +
        'a "billion laughs"): keep to the keys a definition needs, and write aliased values out',
    );
  }
  if (!isPlainRecord(data)) {
    fail(`front matter must be a YAML mapping of keys (like "name: reviewer"), got ${describeValue(data)}`);
  }
  return { data: data as Record<string, unknown>, body: lines.slice(close + 1).join('\n') };
}

function loadYaml(source: string, fail: (reason: string, line?: number) => never): unknown {
  try {
    return load(source);
  } catch (error) {
    const { reason, mark } = error as { reason?: unknown; mark?: { line?: unknown; column?: unknown } };
    const message = typeof reason === 'string' ? reason : errorMessage(error);
    if (typeof mark?.line !== 'number') return fail(`invalid YAML in front matter: ${message}`);
    // The mark counts from the front matter's first line (0-based); the file has the fence above it.
    const line = mark.line + 2;
    const column = typeof mark.column === 'number' ? `, column ${mark.column + 1}` : '';
    return fail(`invalid YAML in front matter at line ${line}${column}: ${message}`, line);
  }
}

/**
 * The lines of `text` without an opening BOM, split at `\n` or `\r\n`. Not with a regular
 * expression: splitting 256 KiB of empty lines by `/\r?\n/` took 50 ms a file, half a minute
 * for a folder of planted ones.
 */
function linesOf(text: string): string[] {
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  for (let i = 0; i < lines.length; i++) if (lines[i]!.endsWith('\r')) lines[i] = lines[i]!.slice(0, -1);
  return lines;
}
