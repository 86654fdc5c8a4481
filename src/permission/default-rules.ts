import type { PermissionRule } from './permission-rule.js';

/**
 * A {@link PermissionRule} that may match in any letter case: the defaults' asks for files
 * that run or hold secrets (`.npmrc`, `.git/`, `.env`...) and `.rxharness/`, since on a file
 * system that ignores case (macOS, Windows) `.NPMRC` is the `.npmrc` npm reads. User rules
 * have no such field (their schema refuses it): they match in the letter case written. It
 * is plain data, so it survives the JSON a policy crosses to a worker in.
 *
 * @internal
 */
export interface CaseFreeRule extends PermissionRule {
  /** Match the pattern and the subject folded to one letter case (`foldCase`: `.NPMRC` and `.npmrc`, `ſ` and `s`), as the bash checks compare these names. */
  readonly nocase?: boolean;
}

const FILE_TOOLS = ['read', 'write', 'edit', 'grep'] as const;
const OPEN_TOOLS = ['read', 'list', 'glob', 'grep', 'write', 'edit', 'todo'] as const;
const WRITE_TOOLS = ['write', 'edit'] as const;
/** The tools that show a file's content: they ask before showing another conversation's. */
const CONTENT_TOOLS = ['read', 'grep'] as const;

/**
 * Files and folders that other programs run, or take commands from, without asking the
 * user: a model that may write them unasked can run a command it was refused (a
 * `core.fsmonitor` in `.git/config` runs on the next `git status`). Each is matched at any
 * depth, since nested repositories, submodules and monorepo packages have their own.
 * Each is a folder's name between `**` and `/**`, or a file's after `**`: the bash check
 * (`executed-writes`) reads the names from them. Both match them in any letter case: on a
 * file system that ignores it (macOS, Windows) `.NPMRC` is the `.npmrc` npm reads.
 */
export const EXECUTED_FILE_PATTERNS: readonly string[] = Object.freeze([
  '**/.git/**', // config (core.fsmonitor, core.pager, aliases), hooks/*, and a `.git` file (gitdir:) itself
  '**/.vscode/**', // tasks.json (runOn: folderOpen), settings.json (terminal and tool paths), launch.json
  '**/.idea/**', // JetBrains run configurations, external tools, startup tasks
  '**/.devcontainer/**', // postCreateCommand and friends, run when the container is built
  '**/.devcontainer.json', // the same, the spec's other place for it (the project's root)
  '**/.hg/**', // hgrc ([hooks], [extensions] loading Python): run by the next `hg status`
  '**/.claude/**', // settings.json hooks: run by Claude Code in the folder
  '**/.husky/**', // git hooks installed by husky
  '**/.envrc', // direnv runs it on entering the folder
  '**/.npmrc', // script-shell, node-options, git: run by every npm command
  '**/.yarnrc', // yarn-path: run by every yarn 1 command
  '**/.yarnrc.yml', // yarnPath: run by every yarn 2+ command
]);

/** An ask for `pattern`, matched in any letter case (see {@link CaseFreeRule}). */
function askAnyCase(tool: string, pattern: string): PermissionRule {
  return Object.freeze<CaseFreeRule>({ tool, action: 'ask', pattern, nocase: true });
}

/**
 * The rules used when no user rule matches a call: reading, listing, searching, writing and
 * planning are allowed (inside the workspace: confinement is checked separately), reading,
 * writing, editing or grepping a file named `.env*` (`.env`, `.env.local`, `.envrc`...) or
 * `*.env` at any depth asks because such files tend to hold secrets, writing or editing
 * under a `.rxharness/` folder (agent definitions, sessions; `generate` saving a definition
 * there too) or a file other programs execute
 * (`.git/`, `.vscode/`, `.npmrc`...: the list is in the permissions guide) asks, reading or
 * grepping under `.rxharness/sessions/` (every conversation's transcript, grants and task
 * records) asks, and `bash` asks.
 * The asks match their names at any depth and in any letter case, as the bash check does.
 * Every user rule ranks above these, whatever its priority.
 */
export const DEFAULT_RULES: readonly PermissionRule[] = Object.freeze([
  ...OPEN_TOOLS.map((tool) => Object.freeze<PermissionRule>({ tool, action: 'allow' })),
  ...FILE_TOOLS.flatMap((tool) =>
    // `.env*` covers .env, .env.local, .envrc (direnv) and .env-prod; `*.env` covers prod.env.
    ['**/.env*', '**/*.env'].map((pattern) => askAnyCase(tool, pattern)),
  ),
  // Agent definitions and sessions live under .rxharness/: a model that could rewrite them
  // unasked could loosen the next engine's rules. At any depth, as bash's check has it: a
  // package's own `.rxharness/` becomes the workspace's when an engine is started there.
  ...WRITE_TOOLS.map((tool) => askAnyCase(tool, '**/.rxharness/**')),
  // `generate` with `save_to_file` writes a definition there: its call is judged under that path too.
  askAnyCase('generate', '**/.rxharness/**'),
  // FileSessionStore keeps every conversation there (transcripts, archives, grants, task
  // records): what a human let one conversation read, a secret included, would be shown to
  // another unasked. Agent and skill definitions beside it stay readable.
  ...CONTENT_TOOLS.map((tool) => askAnyCase(tool, '**/.rxharness/sessions/**')),
  // Writing what another program executes is running a command: it asks like bash does.
  ...WRITE_TOOLS.flatMap((tool) => EXECUTED_FILE_PATTERNS.map((pattern) => askAnyCase(tool, pattern))),
  Object.freeze<PermissionRule>({ tool: 'bash', action: 'ask' }),
]);
