import type { PermissionRule } from './permission-rule.js';

const FILE_TOOLS = ['read', 'write', 'edit', 'grep'] as const;
const OPEN_TOOLS = ['read', 'list', 'glob', 'grep', 'write', 'edit', 'todo'] as const;

/**
 * The rules used when no user rule matches a call: reading, listing, searching, writing and
 * planning are allowed (inside the workspace: confinement is checked separately), reading,
 * writing, editing or grepping a file named `.env*` (`.env`, `.env.local`, `.envrc`...) or
 * `*.env` at any depth asks because such files tend to hold secrets, writing or editing
 * under `.rxharness/` (agent definitions, sessions) asks, and `bash` asks.
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
  ...(['write', 'edit'] as const).map((tool) => Object.freeze<PermissionRule>({ tool, action: 'ask', pattern: '.rxharness/**' })),
  Object.freeze<PermissionRule>({ tool: 'bash', action: 'ask' }),
]);
