import { markedHead } from '../text/marked-head.js';
import { quotedClip } from '../text/quoted-clip.js';
import { describeValue } from '../validation/describe-value.js';

/** One problem the SDK's tool schema found: where in the entry, and what. */
export interface ToolIssue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/** The malformed entries of one listing: the first few kept to be named, the rest counted. */
export interface MalformedTools {
  /** Notes an entry the tool schema refused, `position` its place in the listing (from 1). */
  add(entry: unknown, position: number, issues: readonly ToolIssue[]): void;
  /** A warning message for each named entry, then one counting the others among the `examined` entries looked at; none when there were none. */
  messages(examined: number): string[];
}

// A warning per malformed tool goes to every run that needs the server: a server listing
// 5,000 of them must not bury each run's events under 5,000 warnings.
const MAX_NAMED = 10;

/** Of many alike in one listing, the first few told one by one and the rest counted: the one way a listing's warnings are capped. */
class FirstFew {
  private named = 0;
  /** How many were counted, not told. */
  others = 0;
  /** Whether the next one is told (else it is counted). */
  tell(): boolean {
    if (this.named < MAX_NAMED) {
      this.named += 1;
      return true;
    }
    this.others += 1;
    return false;
  }
}

/** A warning of a listing's tools: a `Warning` event's code and message. */
export interface ListingWarning {
  readonly code: string;
  readonly message: string;
}

/** A listing's warnings about its tools, capped per code; see {@link listingWarnings}. */
export interface ListingWarnings {
  /** Notes a warning: kept when it is among the first few of its code, else counted. */
  add(warning: ListingWarning): void;
  /** The warnings kept, in the order added, then one per code counting those that were not. */
  all(): ListingWarning[];
}

/**
 * The warnings of one listing of server `server`'s tools, as {@link malformedTools} caps its
 * own: of each code, the first ten kept, the rest counted in one warning. They go to every
 * run that needs the server, each child run's too: 1,024 tools of one name gave 1,023
 * warnings, and 250 tools of two unenforced patterns 500, in every run.
 *
 * @example
 * ```ts
 * const told = listingWarnings('docs');
 * told.add({ code: 'mcp-tool-skipped', message: '...' });
 * told.all(); // [{ code: 'mcp-tool-skipped', message: '...' }]
 * ```
 */
export function listingWarnings(server: string): ListingWarnings {
  const kept: ListingWarning[] = [];
  const codes = new Map<string, FirstFew>();
  return {
    add(warning) {
      const few = codes.get(warning.code) ?? new FirstFew();
      codes.set(warning.code, few);
      if (few.tell()) kept.push(warning);
    },
    all() {
      const counted = [...codes].filter(([, few]) => few.others > 0);
      const message = (code: string, others: number): string =>
        `MCP server "${server}" has ${others} more ${code} warnings about the tools it lists, not given one by one here (the first ${MAX_NAMED} are).`;
      return [...kept, ...counted.map(([code, few]) => ({ code, message: message(code, few.others) }))];
    },
  };
}
// Issues said of one tool, and how much of a name or a key is quoted (quotes and escapes
// included: a control escapes to six characters), and how much of a message is shown (marks
// included: a control is marked in eight, `<U+001B>`).
const MAX_ISSUES = 3;
const QUOTED_CHARS = 80;
const MESSAGE_CHARS = 200;

/**
 * Collects the malformed tools of a listing of server `server` and words what is wrong with
 * each: which tool (its name, escaped and cut, or what stands in its place), and where in it
 * the SDK's schema found what, so the server's author can mend it.
 *
 * @example
 * ```ts
 * const bad = malformedTools('docs');
 * bad.add({ name: 'search', inputSchema: { type: 'string' } }, 3, [{ path: ['inputSchema', 'type'], message: 'Invalid input: expected "object"' }]);
 * bad.messages(3); // ['MCP server "docs" lists a malformed tool, "search" (number 3 of its list): inputSchema.type: Invalid input: expected "object"; it is left out.']
 * ```
 */
export function malformedTools(server: string): MalformedTools {
  const named: string[] = [];
  const few = new FirstFew();
  return {
    add(entry, position, issues) {
      if (!few.tell()) return;
      const what = issues.slice(0, MAX_ISSUES).map(describedIssue).join('; ');
      const more = issues.length > MAX_ISSUES ? ` (and ${issues.length - MAX_ISSUES} more problems)` : '';
      named.push(`MCP server "${server}" lists a malformed tool, ${whichTool(entry)} (number ${position} of its list): ${what}${more}; it is left out.`);
    },
    messages(examined) {
      if (few.others === 0) return [...named];
      // Of those looked at: past the limits of a listing, entries are not looked at.
      return [...named, `MCP server "${server}" lists ${few.others} more malformed tools among the ${examined} entries looked at, not named here; they are left out too.`];
    },
  };
}

/** The tool as a reader can find it: its name quoted, or what stands where its name belongs. */
function whichTool(entry: unknown): string {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return `${describeValue(entry)} where a tool belongs`;
  const name = (entry as { name?: unknown }).name;
  if (typeof name === 'string') return quotedClip(name, QUOTED_CHARS);
  return name === undefined ? 'one with no name' : `one whose name is ${describeValue(name)}`;
}

/**
 * One problem the SDK's schema found in what a server sent, in words: where (a key of the
 * server's quoted and escaped), then what (controls and invisible characters marked as
 * `<U+001B>`), each cut: the message to 200 characters once marked.
 *
 * @example
 * ```ts
 * describedIssue({ path: ['inputSchema', 'type'], message: 'Invalid input' }); // 'inputSchema.type: Invalid input'
 * ```
 */
export function describedIssue(issue: ToolIssue): string {
  // The SDK's words, yet they may quote the server's: a control or bidi character must not
  // reach a terminal, and the bound holds on the marked text (a mark is eight characters).
  const message = markedHead(issue.message, MESSAGE_CHARS);
  return issue.path.length === 0 ? message : `${pathOf(issue.path)}: ${message}`;
}

/** A path in an entry as code would write it; a key of the server's choosing is quoted, escaped and cut. */
function pathOf(path: readonly PropertyKey[]): string {
  let text = '';
  for (const key of path) {
    if (typeof key === 'number') text += `[${key}]`;
    else if (typeof key === 'string' && /^[A-Za-z_$][\w$]{0,79}$/.test(key)) text += text === '' ? key : `.${key}`;
    else text += `[${quotedClip(String(key), QUOTED_CHARS)}]`;
  }
  return text;
}
