import { commandParts, type CommandParts } from './bash/command-parts.js';
import { STRENGTH, type PermissionDecision } from './permission-decision.js';
import { quoted } from './quoted.js';

/** How to decide the parts of one bash command line. */
export interface CommandJudges {
  /** Decides one simple command (every one must be allowed); `undefined` when no rule says anything. */
  readonly command: (text: string) => PermissionDecision | undefined;
  /** Decides another spelling of the line; only a deny or an ask counts. */
  readonly variant: (text: string) => PermissionDecision | undefined;
  /** Decides a command's shape (see `CommandParts.shapes`): the strictest deny or ask rule that could match it, if any. */
  readonly shape: (shape: string) => PermissionDecision | undefined;
  /**
   * What a line too complex to check gets: `deny` while a bash deny rule with a pattern is in
   * force (it could be dodged, and a deny never becomes an approval), `ask` while only ask rules
   * with a pattern are, `undefined` when no such rule could be dodged.
   */
  readonly guard: 'deny' | 'ask' | undefined;
  /**
   * Why the line cannot be checked, found beyond its text (a write through a symbolic link
   * into a file other programs run: see `linked-executed`): the line is decided as one its
   * parts call unreadable (`CommandParts.opaque`) is.
   */
  readonly unreadable?: string;
}

/**
 * Decides a bash command line part by part (see `commandParts`): the strictest of the
 * decisions of its simple commands and of the deny and ask decisions of its other
 * spellings; at least `guard` when the line is too complex to check, where an allow by a
 * rule with a pattern also becomes an ask.
 * The reason names the part it is about when the line has more than that part.
 *
 * @returns `undefined` when some command has no decision and nothing stricter than allow was found.
 */
export function decideCommandLine(line: string, judges: CommandJudges): PermissionDecision | undefined {
  return decideParts(line, commandParts(line), judges);
}

/**
 * Decides a line whose reading failed (`why`: what went wrong) as {@link decideCommandLine}
 * decides a line its reader calls unreadable, the whole line taken as one command: at least
 * the `guard`, and an allow by a rule with a pattern asks.
 */
export function decideUnreadLine(line: string, judges: CommandJudges, why: string): PermissionDecision | undefined {
  return decideParts(line, { commands: [line.replace(/\s+/g, ' ').trim()], variants: [], opaque: why }, judges);
}

function decideParts(line: string, parts: Pick<CommandParts, 'commands' | 'variants' | 'shapes' | 'opaque'>, judges: CommandJudges): PermissionDecision | undefined {
  const opaque = parts.opaque ?? judges.unreadable;
  const whole = line.replace(/\s+/g, ' ').trim();
  let best: PermissionDecision | undefined;
  let undecided = false;
  const consider = (decision: PermissionDecision, part: string): void => {
    if (best !== undefined && STRENGTH[decision.action] <= STRENGTH[best.action]) return;
    best = part === whole || part === line ? decision : { ...decision, reason: `${decision.reason} (for ${quoted(shorten(part))})` };
  };
  for (const command of parts.commands) {
    const decision = judges.command(command);
    if (decision === undefined) undecided = true;
    else consider(opaque !== undefined ? unvouched(decision, opaque) : decision, command);
  }
  for (const variant of parts.variants) {
    const decision = judges.variant(variant);
    if (decision !== undefined && decision.action !== 'allow') consider(decision, variant);
  }
  for (const shape of parts.shapes ?? []) {
    const decision = judges.shape(shape);
    // Its own wording: the shape is no command as written, but what the command may turn into.
    if (decision !== undefined && decision.action !== 'allow') consider({ ...decision, reason: `${decision.reason} (for ${quoted(shorten(shape))}: parts of the command are known only when it runs, and then it may match)` }, line);
  }
  if (opaque !== undefined && judges.guard !== undefined) {
    consider(
      judges.guard === 'deny'
        ? { action: 'deny', reason: `denied: the command has ${opaque}, so the bash deny rules cannot check it` }
        : { action: 'ask', reason: `approval required: the command has ${opaque}, so the bash ask rules cannot check it` },
      line,
    );
  }
  if (best === undefined || (undecided && best.action === 'allow')) return undefined;
  return best;
}

/**
 * An allow by a rule with a pattern vouches for what the line shows; on a line the checker
 * cannot fully read it would also allow what it does not show (`git log ${x@P}` under
 * `allow git *`), so it asks instead. An allow without a pattern (all of bash) still allows.
 */
function unvouched(decision: PermissionDecision, opaque: string): PermissionDecision {
  if (decision.action !== 'allow' || decision.rule?.pattern === undefined) return decision;
  return { action: 'ask', reason: `approval required: the command has ${opaque}, so the bash allow rules cannot check it`, rule: decision.rule };
}

/** A part as a reason quotes it: long ones cut in the middle, since the whole line is shown with the call anyway. */
function shorten(part: string): string {
  return part.length <= 160 ? part : `${part.slice(0, 100)} … ${part.slice(-50)}`;
}
