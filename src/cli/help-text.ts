import { fileURLToPath } from 'node:url';

// The lines of the flags every engine-building command shares (see engine-flags.ts), so
// run, serve and worker describe them alike.

/**
 * The guides' folder: the package ships docs/*.md next to dist/ and src/ (package.json
 * "files"), so "see docs/http.md" in a help names a file the user has. Printed whole, as
 * the CLI may run from a global install or npx's cache.
 */
export const DOCS_DIR = fileURLToPath(new URL('../../docs/', import.meta.url));

/** The last line of a help that names guides: where they are. */
const GUIDES_LINE = `Guides (docs/*.md): ${DOCS_DIR}\n`;

/** The model flags' lines. */
const MODEL_HELP = `  --demo              use the built-in scripted model (offline, no API key needed)
  --model M           model id (default: $RXHARNESS_MODEL)
  --base-url URL      OpenAI-compatible server (default: $OPENAI_BASE_URL, then OpenAI)
  --api-key K         the server's key (default: $OPENAI_API_KEY; a --base-url server may need
                      none). Every local user can read a command line: prefer $OPENAI_API_KEY
  --max-tokens N      the most tokens a reply may have (default: the server's)
  --temperature T     sampling temperature, 0 to 2 (default: the server's)
  --tool-choice C     auto, required, none, or tool:NAME to force that tool (when tools are offered)
  --context-window N  the model's context window in tokens (default: asked of the server where it
                      says, e.g. llama.cpp); conversations are compacted to fit it
  --extra-body JSON   more request fields as a JSON object, e.g. '{"logit_bias":{"2":5}}'
  --max-retries N     retries of a failed request (default 2; 0: none, not even the waits below)
  --retry-budget D    how long to wait in all for a server still starting (503, refused
                      connection): 60s (default), 500ms, 2m; 0 waits not at all
`;

/** The engine flags' lines. */
const ENGINE_HELP = `  --workspace DIR     folder the tools work in (default: the current folder)
  --max-tasks N       subagents of one multitask running at once (default 5; 0 = no limit)
  --max-steps N       ReAct steps per run (default 30)
  --max-depth N       delegation depth: 1 (default) children cannot delegate, 0 no delegation
  --agent-dir DIR     another folder of agent definitions (*.md), after the standard ones
                      (it must exist); repeat it for more
  --mcp-config FILE   MCP servers from a JSON file, { "mcpServers": { NAME: { "command": ...,
                      "args": [...] } or { "url": ... } } } (see docs/cli.md): the agents get
                      their tools as mcp__NAME__TOOL; repeat it for more. A workspace's own
                      .mcp.json is never loaded: only the files named here
  --pass-env NAME     give the model's bash commands the variable NAME too, e.g. OPENAI_API_KEY
                      for a script of yours that needs it (they get every variable but
                      OPENAI_API_KEY by default); repeat it for more
`;

/** The forms a `--redis` URL (or $RXHARNESS_REDIS_URL) takes: those `checkRedisUrl` accepts. */
const REDIS_URL_FORMS = `                      URL: redis://[USER:PASSWORD@]HOST:PORT (rediss:// for TLS), HOST:PORT, a
                      port, or a Unix socket's absolute path (/var/run/redis/redis.sock)
`;

/** `rxharness --help`. */
export const MAIN_HELP = `rxharness - an agent harness that delegates to subagents, shown live

Usage:
  rxharness run [options] PROMPT       run the main agent (or "@name PROMPT" to run one agent)
  rxharness agents [--json]            list the available subagent definitions
  rxharness serve [options]            serve a browser page of live runs (and their HTTP routes)
  rxharness worker --redis URL         run delegated tasks for engines sharing that Redis
  rxharness --version

Run "rxharness <command> --help" for a command's options.
${GUIDES_LINE}`;

/** `rxharness run --help`. */
export const RUN_HELP = `Usage: rxharness run [options] PROMPT
       rxharness run [options] @AGENT PROMPT

Runs the main agent on PROMPT (or the named subagent directly) and shows a live tree of
the run and its tasks. Ctrl+C cancels the run and every task (exit code 130), as SIGTERM
(143) and the SIGHUP of a closed terminal (129) do.

Options:
${MODEL_HELP}${ENGINE_HELP}  --session NAME      continue the conversation NAME (kept in <workspace>/.rxharness/sessions,
                      so the next run with the same NAME remembers this one)
  --trust-session     take the stored conversation NAME as yours although it is not sealed
                      with your key (written by an older rxharness, or in a moved workspace),
                      and seal it; read it first: a cloned repository can ship a made-up one
  --yes               approve every tool call that asks for approval, without asking: bash
                      commands; reading, writing, editing or grepping .env* and *.env files;
                      writing or editing under .rxharness/ (agent definitions, sessions),
                      and generate saving an agent there (save_to_file);
                      any call a rule marks "ask" (deny rules still deny). Without it a terminal
                      asks you, and with no terminal such calls are rejected (stderr says so)
  --approval-timeout D  reject a call nobody answered within D (10m, 90s, 500ms; the model
                      reads that it timed out); default: wait as long as it takes
  --json              print one event per line (NDJSON) instead of the tree
  -h, --help          show this help

Environment: OPENAI_API_KEY, OPENAI_BASE_URL, RXHARNESS_MODEL.
Exit codes: 0 the run ended normally, 1 it ended abnormally or failed, 2 bad usage, 130 cancelled,
143 cancelled by SIGTERM, 129 by SIGHUP (the terminal was closed: rxharness ends by that
signal), 141 the output was closed before the run ended (e.g. | head), which stops the run.
${GUIDES_LINE}`;

/** `rxharness agents --help`. */
export const AGENTS_HELP = `Usage: rxharness agents [--json] [--workspace DIR] [--agent-dir DIR] [--mcp-config FILE]

Lists the visible subagent definitions (built-ins, <workspace>/.rxharness/agents,
~/.rxharness/agents, --agent-dir folders) with where each comes from and the tools each
gets when the main agent delegates to it, then what the engine would report about the
definition files: the ones it could not read and why, unknown tool names, overrides.

agents takes no model flags (--model, --max-tokens, --context-window, --extra-body): the
settings a workspace definition's runs ignore are those of a run without them, so such a
definition's context_window always shows as ignored here (definition-setting-ignored; with
run's --context-window at least as large, a run uses it; see docs/cli.md).

Options:
  --json              print one JSON document instead of text: { agents (each with its
                      tools), diagnostics, notLoaded (the files no agent came from) }
  --agent-dir DIR     another folder of agent definitions, as run's --agent-dir
  --workspace DIR     the workspace whose definitions to include (default: current folder)
  --mcp-config FILE   MCP servers, as run's --mcp-config: the files are checked, the servers
                      not started (their tools are not listed)
  -h, --help          show this help

Exit codes: 0 every definition file was loaded (with warnings or not), 1 one was not loaded
(invalid, unreadable, a duplicate name: the list says why), 2 bad usage.
${GUIDES_LINE}`;

/** `rxharness serve --help`. */
export const SERVE_HELP = `Usage: rxharness serve [options]

Serves a browser page that starts runs of the main agent and shows each live as a tree of
its tasks, with Approve / Reject buttons for tool calls that ask, and the HTTP routes it
uses (POST /api/runs, GET /api/runs/:id/events, ...; see docs/http.md). A run lives on the
server: closing or reloading the page leaves it going, and its address (?run=<id>) shows it
again in any tab. Ctrl+C (or SIGTERM) cancels the runs and stops the server (exit code 0); so
does the SIGHUP of a closed terminal, after which it ends by that signal (a shell reports 129).

Options:
${MODEL_HELP}${ENGINE_HELP}  --port N            port to listen on (default 4173; 0 picks a free one)
  --host H            interface to listen on (default 127.0.0.1: this machine only; the
                      runs use tools on your workspace, so think twice before exposing it).
                      Another address than loopback needs --token, and warns
  --token T           the secret every request needs (default: $RXHARNESS_TOKEN, else a new
                      random one); the printed address carries it (?token=...), the page keeps
                      it in a cookie, programs send "Authorization: Bearer T". Every local
                      user can read a command line: on a shared machine prefer $RXHARNESS_TOKEN.
                      A token that starts with "-" goes as --token=-T (--token -T reads as a flag)
  --max-runs N        runs that may run at once (default 16); more are answered 429
  --max-control-requests N  requests starting no run (answers to approvals, A2A reads of
                      tasks) read at once by each route, its own besides --max-runs
                      (default 8); more are answered 429
  --yes               approve every tool call that asks (otherwise the page asks you)
  --approval-timeout D  reject a call the page left unanswered for D (default 10m; 90s,
                      500ms; 0 waits as long as it takes): the card goes, the model reads why
  --redis URL         share runs, sessions and approvals with other instances on this Redis;
                      background tasks run on workers (rxharness worker; see docs/scaling.md).
${REDIS_URL_FORMS}  --prefix P          key prefix shared with the other instances and workers (default rxh)
  --distribute        with --redis: foreground tasks run on workers too
  -h, --help          show this help

Environment: OPENAI_API_KEY, OPENAI_BASE_URL, RXHARNESS_MODEL, RXHARNESS_TOKEN.
${GUIDES_LINE}`;

/** `rxharness worker --help`. */
export const WORKER_HELP = `Usage: rxharness worker --redis URL [options]

Runs the tasks that engines sharing the Redis server delegate (background tasks always,
foreground ones when the engine has distributeTasks), pulled from its BullMQ queue, each
with the rules, tools and step bound the engine gave it. Its model, tools and definitions
must match the engines' (same --model, workspace, --agent-dir and --mcp-config). Ctrl+C
(or SIGTERM) fails the tasks running here and stops it (exit code 0), and so does a SIGHUP,
after which it ends by that signal; see docs/scaling.md.

Options:
  --redis URL         the Redis server (default: $RXHARNESS_REDIS_URL), e.g. redis://127.0.0.1:6379.
${REDIS_URL_FORMS}  --prefix P          key prefix shared with the engines (default rxh)
  --concurrency N     tasks run at once (default 10)
${MODEL_HELP}${ENGINE_HELP}  -h, --help          show this help

Environment: OPENAI_API_KEY, OPENAI_BASE_URL, RXHARNESS_MODEL, RXHARNESS_REDIS_URL.
Exit codes: 0 stopped with Ctrl+C or SIGTERM, 1 Redis cannot be reached, 2 bad usage; stopped
by SIGHUP (its terminal closed), it ends by that signal once stopped (a shell reports 129).
${GUIDES_LINE}`;
