import { decideCommandLine, decideUnreadLine, type CommandJudges } from './decide-command-line.js';
import { errorMessage } from '../errors/error-message.js';
import { clipMiddle } from '../text/clip-middle.js';
import { DEFAULT_RULES } from './default-rules.js';
import { commandGuard, evaluateShape, evaluateSubject } from './evaluate-rules.js';
import { STRENGTH, type PermissionDecision } from './permission-decision.js';
import { describeRule, type PermissionAction, type PermissionRule } from './permission-rule.js';
import { LinkWalker } from './link-walker.js';
import { executedThroughLink } from './linked-executed.js';
import { quoted } from './quoted.js';
import { ruleMatches } from './rule-matches.js';
import { decideWrites, limitsWrites } from './write-rules.js';

/** Options of a {@link PermissionPolicy}. */
export interface PermissionPolicyOptions {
  /** The engine's rules (`permissionRules`). */
  readonly rules?: readonly PermissionRule[];
  /** The agent definition's rules; they compete with the engine's by priority. */
  readonly agentRules?: readonly PermissionRule[];
  /** The policy of the agent that delegated to this one: its denies are kept. */
  readonly parent?: PermissionPolicy;
  /**
   * Used only when no user rule matches; default: the built-in rules (reading, searching and
   * writing allowed; secrets like `.env`, files other programs run, and `bash` asked; see the
   * permissions guide).
   */
  readonly defaults?: readonly PermissionRule[];
  /**
   * True when `agentRules` come from a source that is not trusted to loosen (a definition in
   * the workspace): its `allow` rules are dropped, and no decision is ever looser than
   * without its rules. Default false.
   */
  readonly narrowOnly?: boolean;
}

const DEFAULT_VERB: Readonly<Record<PermissionAction, string>> = {
  allow: 'is allowed',
  ask: 'asks for approval',
  deny: 'is denied',
};

/**
 * The permission layers of one agent: user rules (engine and definition, competing by
 * priority), then defaults, then the parent's denies on top. A `bash` command line is
 * decided command by command, each through these layers, and gets the strictest answer
 * (see `evaluateRules`); a line too complex to check is denied while a bash deny rule with a
 * pattern could be dodged by it (asks while only an ask rule could). What a line writes is
 * also judged by the user's `write` and `edit` deny and ask rules (see `write-rules`), and,
 * given the workspace, where the symbolic links on its way lead (see `linked-targets`).
 *
 * @example
 * ```ts
 * const engine = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow', pattern: 'git *' }] });
 * engine.evaluate('bash', 'git status').action; // 'allow'
 * engine.evaluate('bash', 'make').reason; // 'bash asks for approval by default'
 * const reviewer = engine.child([{ tool: 'write', action: 'deny' }]);
 * reviewer.evaluate('write', 'a.ts').action; // 'deny'
 * ```
 */
export class PermissionPolicy {
  /** The engine's rules. */
  readonly rules: readonly PermissionRule[];
  /** This agent's own rules. */
  readonly agentRules: readonly PermissionRule[];
  /** The rules used when no user rule matches. */
  readonly defaults: readonly PermissionRule[];
  /** The delegating agent's policy, if any. */
  readonly parent: PermissionPolicy | undefined;
  /** Whether this agent's own rules may only narrow what the engine rules and defaults decide. */
  readonly narrowOnly: boolean;
  /** The engine's rules, then this agent's: both frozen, so joined once (every call is decided on them). */
  readonly #userRules: readonly PermissionRule[];
  /** Whether a user rule denies or asks about writing: only then are a bash line's writes judged (`write-rules`). */
  readonly #limitsWrites: boolean;

  constructor(options: PermissionPolicyOptions = {}) {
    this.narrowOnly = options.narrowOnly ?? false;
    this.rules = Object.freeze([...(options.rules ?? [])]);
    const agentRules = options.agentRules ?? [];
    this.agentRules = Object.freeze(this.narrowOnly ? agentRules.filter((rule) => rule.action !== 'allow') : [...agentRules]);
    this.defaults = options.defaults ?? DEFAULT_RULES;
    this.parent = options.parent;
    this.#userRules = Object.freeze([...this.rules, ...this.agentRules]);
    this.#limitsWrites = limitsWrites(this.#userRules);
  }

  /**
   * Decides a call of `toolName` whose main argument is `subject` (a command, a path
   * relative to the workspace or absolute, a url). Nothing matching means allow; a deny of
   * any ancestor wins over whatever this policy says.
   *
   * @param where - the folder a `bash` line runs in (the agent's workspace): given, the
   *   paths the line writes are also judged where the symbolic links on their way lead now
   *   (`frontend -> src` makes `echo x > frontend/a.ts` a write of `src/a.ts`); without it
   *   they are judged as the line shows them. Other tools' paths come resolved already.
   */
  evaluate(toolName: string, subject?: string, where?: { readonly workspace: string }): PermissionDecision {
    try {
      // One walker for the whole decision (this policy's layers and its ancestors'): each link is read once.
      const links = where !== undefined && toolName === 'bash' && subject !== undefined ? new LinkWalker(where.workspace) : undefined;
      return this.#evaluate(toolName, subject, links);
    } catch (error) {
      // A fault of the checker must not decide the call, nor fail it: it is decided as a line the checker cannot read.
      return this.#unread(toolName, subject, error);
    }
  }

  /** The decision for a call whose checking threw: a bash line as an unreadable one (the guard holds), anything else denied. */
  #unread(toolName: string, subject: unknown, error: unknown): PermissionDecision {
    const message = clipMiddle(errorMessage(error), 200);
    try {
      if (toolName === 'bash' && subject !== undefined) return this.#evaluate(toolName, String(subject), undefined, `text the checker could not read (it failed: ${message})`);
    } catch {
      // Judged below without the rules.
    }
    return { action: 'deny', reason: `denied: the ${toolName} call could not be read by the permission checker (it failed: ${message})` };
  }

  /** `unread`: the line's reading failed, saying why: it is decided as unreadable, its parts unknown. */
  #evaluate(toolName: string, subject: string | undefined, links: LinkWalker | undefined, unread?: string): PermissionDecision {
    const own = this.evaluateOwn(toolName, subject, links, unread);
    if (own.action === 'deny' || this.parent === undefined) return own;
    const inherited = this.parent.#evaluate(toolName, subject, links, unread);
    if (inherited.action !== 'deny') return own;
    return {
      action: 'deny',
      reason: `denied by the parent agent: ${inherited.reason}`,
      ...(inherited.rule ? { rule: inherited.rule } : {}),
    };
  }

  /**
   * A policy for a delegated agent: the same engine rules, `agentRules` as its own, this as
   * parent. With `narrowOnly` its allow rules are dropped and it never decides more loosely
   * than it would without its rules.
   */
  child(agentRules: readonly PermissionRule[], options: { readonly narrowOnly?: boolean } = {}): PermissionPolicy {
    return new PermissionPolicy({ rules: this.rules, agentRules, parent: this, defaults: this.defaults, narrowOnly: options.narrowOnly ?? false });
  }

  /**
   * Whether `toolName` may touch `absolutePath` although it lies outside the workspace.
   * Only an explicit user `allow` rule of this policy for the tool (or `*`) whose pattern
   * matches the path widens the workspace; default rules and `ask` rules never do, and any
   * deny that keeps the path out ({@link outsideDenial}) holds whatever the allow's priority.
   */
  allowsOutsideWorkspace(toolName: string, absolutePath: string): boolean {
    return this.explicitlyAllows(toolName, absolutePath) && this.outsideDenial(toolName, absolutePath) === undefined;
  }

  /**
   * {@link allowsOutsideWorkspace} and, when not, {@link outsideDenial}, the rules read once:
   * what a refusal of the path needs: the deny that keeps it out, or none (`denial` absent: only a
   * missing allow rule does).
   *
   * @example
   * ```ts
   * const policy = new PermissionPolicy({ rules: [{ tool: 'read', action: 'deny', pattern: '/srv/**' }] });
   * policy.outsideWorkspace('read', '/srv/a.txt'); // { allowed: false, denial: { action: 'deny', reason: 'denied by rule {...}', rule } }
   * policy.outsideWorkspace('read', '/etc/passwd'); // { allowed: false }
   * ```
   */
  outsideWorkspace(
    toolName: string,
    absolutePath: string,
  ):
    | {
        /** An explicit allow rule lets the tool reach the path, and no deny keeps it out. */
        readonly allowed: true;
      }
    | {
        /** The path stays out of the tool's reach. */
        readonly allowed: false;
        /** The deny that keeps it out ({@link outsideDenial}); absent when only a missing allow rule does. */
        readonly denial?: PermissionDecision;
      } {
    const denial = this.outsideDenial(toolName, absolutePath);
    if (denial !== undefined) return { allowed: false, denial };
    return this.explicitlyAllows(toolName, absolutePath) ? { allowed: true } : { allowed: false };
  }

  /**
   * The deny that keeps `absolutePath`, outside the workspace, out of `toolName`'s reach
   * whatever allow rules match it: a matching user deny rule of this policy (the one of highest
   * priority) or of an ancestor (`denied by the parent agent: ...`), whatever its priority, or
   * else a deny decision of the rules; `undefined` when none does (then only a missing allow
   * rule keeps the path out). The refusal names it, so it advises about that deny rule.
   *
   * @example
   * ```ts
   * const policy = new PermissionPolicy({ rules: [
   *   { tool: 'read', action: 'allow', pattern: '/srv/**', priority: 5 },
   *   { tool: 'read', action: 'deny', pattern: '/srv/secret/**' },
   * ] });
   * policy.outsideDenial('read', '/srv/secret/key')?.reason; // 'denied by rule {tool: "read", action: deny, pattern: "/srv/secret/**"}'
   * policy.outsideDenial('read', '/srv/a.txt'); // undefined
   * ```
   */
  outsideDenial(toolName: string, absolutePath: string): PermissionDecision | undefined {
    let rule: PermissionRule | undefined;
    for (const candidate of this.userRules()) {
      if (candidate.action !== 'deny' || !ruleMatches(candidate, toolName, absolutePath)) continue;
      if (rule === undefined || (candidate.priority ?? 0) > (rule.priority ?? 0)) rule = candidate;
    }
    if (rule !== undefined) return { action: 'deny', reason: `denied by rule ${describeRule(rule)}`, rule };
    const inherited = this.parent?.outsideDenial(toolName, absolutePath);
    if (inherited !== undefined) {
      return { action: 'deny', reason: `denied by the parent agent: ${inherited.reason}`, ...(inherited.rule ? { rule: inherited.rule } : {}) };
    }
    const decision = this.evaluate(toolName, absolutePath);
    return decision.action === 'deny' ? decision : undefined;
  }

  /** Whether a user `allow` rule of this policy with a pattern matches: only such a rule widens the workspace. */
  private explicitlyAllows(toolName: string, absolutePath: string): boolean {
    return this.userRules().some((rule) => rule.action === 'allow' && rule.pattern !== undefined && ruleMatches(rule, toolName, absolutePath));
  }

  private userRules(): readonly PermissionRule[] {
    return this.#userRules;
  }

  private evaluateOwn(toolName: string, subject: string | undefined, links: LinkWalker | undefined, unread: string | undefined): PermissionDecision {
    const own = this.decide(this.userRules(), toolName, subject, links, unread);
    if (!this.narrowOnly) return own;
    // Untrusted rules only narrow: never looser than the engine rules and defaults alone.
    const without = this.decide(this.rules, toolName, subject, links, unread);
    return STRENGTH[without.action] > STRENGTH[own.action] ? without : own;
  }

  /** The decision of one agent's layers (`user` rules, then the defaults); command lines part by part. */
  private decide(user: readonly PermissionRule[], toolName: string, subject: string | undefined, links: LinkWalker | undefined, unread: string | undefined): PermissionDecision {
    if (toolName !== 'bash' || subject === undefined) return this.decideSubject(user, toolName, subject);
    const patterned = this.defaults.filter((rule) => rule.pattern !== undefined);
    // A write through a link into a file other programs run makes the line unreadable, as naming that file would.
    const unreadable = links === undefined ? undefined : executedThroughLink(subject, links);
    const judges: CommandJudges = {
      ...(unreadable === undefined ? {} : { unreadable }),
      command: (text) => this.decideSubject(user, toolName, text),
      // Another spelling of a command is only checked for denies and asks: the defaults' bare
      // `bash: ask` is for the commands themselves.
      variant: (text) => evaluateSubject(user, toolName, text) ?? evaluateSubject(patterned, toolName, text),
      shape: (shape) => evaluateShape(user, toolName, shape) ?? evaluateShape(patterned, toolName, shape),
      guard: this.commandGuard(),
    };
    // A line that could not be read at all: its writes are not known either, and are left to the bash rules as an unreadable line's are.
    if (unread !== undefined) return decideUnreadLine(subject, judges, unread)!;
    const decided = decideCommandLine(subject, judges)!;
    // What the line writes is judged by the user's write and edit rules too: the strictest holds.
    const written = this.#limitsWrites ? decideWrites(user, subject, links) : undefined;
    return written !== undefined && STRENGTH[written.action] > STRENGTH[decided.action] ? written : decided;
  }

  private decideSubject(user: readonly PermissionRule[], toolName: string, subject: string | undefined): PermissionDecision {
    const decided = evaluateSubject(user, toolName, subject);
    if (decided) return decided;
    const fallback = evaluateSubject(this.defaults, toolName, subject);
    if (fallback?.rule) {
      // The subject is the model's (a path, a line): quoted, it cannot end the reason and speak in its place.
      const target = fallback.rule.pattern !== undefined && subject !== undefined ? ` for ${quoted(subject)}` : '';
      return { ...fallback, reason: `${toolName} ${DEFAULT_VERB[fallback.action]} by default${target}` };
    }
    return { action: 'allow', reason: `no rule matches ${toolName}; allowed` };
  }

  /** What an uncheckable line gets: `deny` if this agent or an ancestor denies particular commands, `ask` if one asks about them. */
  private commandGuard(): 'deny' | 'ask' | undefined {
    let guard: 'deny' | 'ask' | undefined;
    for (let policy: PermissionPolicy | undefined = this; policy; policy = policy.parent) {
      for (const rules of [policy.userRules(), policy.defaults]) {
        const found = commandGuard(rules);
        if (found === 'deny') return 'deny';
        guard ??= found;
      }
    }
    return guard;
  }
}
