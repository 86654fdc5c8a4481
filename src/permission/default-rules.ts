import type { PermissionRule } from './permission-rule.js';

const FILE_TOOLS = ['read', 'write', 'edit', 'grep'] as const;
const OPEN_TOOLS = ['read', 'list', 'glob', 'grep', 'write', 'edit', 'todo'] as const;
const WRITE_TOOLS = ['write', 'edit'] as const;

/**
 * Files and folders that other programs run, or take commands from, without asking the
 * user: a model that may write them unasked can run a command it was refused (a
 * `core.fsmonitor` in `.git/config` runs on the next `git status`). Each is matched at any
 * depth, since nested repositories, submodules and monorepo packages have their own.
 * Each is a folder's name between `**` and `/**`, or a file's after `**`: the bash check
 * (`executed-writes`) reads the names from them.
 */
export const EXECUTED_FILE_PATTERNS: readonly string[] = Object.freeze([
  '**/.git/**', // config (core.fsmonitor, core.pager, aliases), hooks/*, and a `.git` file (gitdir:) itself
  '**/.vscode/**', // tasks.json (runOn: folderOpen), settings.json (terminal and tool paths), launch.json
  '**/.idea/**', // JetBrains run configurations, external tools, startup tasks
  '**/.devcontainer/**', // postCreateCommand and friends, run when the container is built
  '**/.husky/**', // git hooks installed by husky
  '**/.envrc', // direnv runs it on entering the folder
  '**/.npmrc', // script-shell, node-options, git: run by every npm command
  '**/.yarnrc', // yarn-path: run by every yarn 1 command
  '**/.yarnrc.yml', // yarnPath: run by every yarn 2+ command
]);

/**
 * The rules used when no user rule matches a call: reading, listing, searching, writing and
 * planning are allowed (inside the workspace: confinement is checked separately), reading,
 * writing, editing or grepping a file named `.env*` (`.env`, `.env.local`, `.envrc`...) or
 * `*.env` at any depth asks because such files tend to hold secrets, writing or editing
 * under `.rxharness/` (agent definitions, sessions) or a file other programs execute
 * (`.git/`, `.vscode/`, `.npmrc`...: the list is in the permissions guide) asks, and `bash` asks.
 * Every user rule ranks above these, whatever its priority.
 */
export const DEFAULT_RULES: readonly PermissionRule[] = Object.freeze([
  ...OPEN_TOOLS.map((tool) => Object.freeze<PermissionRule>({ tool, action: 'allow' })),
  ...FILE_TOOLS.flatMap((tool) =>
    // `.env*` covers .env, .env.local, .envrc (direnv) and .env-prod; `*.env` covers prod.env.
    ['**/.env*', '**/*.env'].map((pattern) => Object.freeze<PermissionRule>({ tool, action: 'ask', pattern })),
  ),
  // Agent definitions and sessions live under .rxharness/: a model that could rewrite them
  // unasked could loosen the next engine's rules.
  ...WRITE_TOOLS.map((tool) => Object.freeze<PermissionRule>({ tool, action: 'ask', pattern: '.rxharness/**' })),
  // Writing what another program executes is running a command: it asks like bash does.
  ...WRITE_TOOLS.flatMap((tool) =>
    EXECUTED_FILE_PATTERNS.map((pattern) => Object.freeze<PermissionRule>({ tool, action: 'ask', pattern })),
  ),
  Object.freeze<PermissionRule>({ tool: 'bash', action: 'ask' }),
]);
