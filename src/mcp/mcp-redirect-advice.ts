import { isStdioServer, type McpServerConfig } from './mcp-server-config.js';

// What the SDK's HTTP transport says of a redirect it did not follow. Its note names an
// option of its own (`redirectPolicy`) that no rxharness config can set.
const UNFOLLOWED = /Redirect to (?:plain http not followed; try (\S+) instead|(\S+) not followed) \(redirectPolicy: 'same-origin'\)/g;
// As many as the SDK follows within an origin.
const MOST_FOLLOWED = 5;

/**
 * `message` with each of the SDK's notes on a redirect it did not follow worded for an
 * rxharness user: what was refused, and the one thing they can do, set the server's `url`
 * to where it leads (the SDK's own `redirectPolicy` is not an option of ours). A redirect
 * to another origin is never followed, so the config's headers and the calls' arguments
 * reach no host but the one configured; one within the origin is followed up to 5 times
 * (for a POST, a 307 or 308 only). Unchanged when it holds no such note, or for a stdio
 * server. The target is as the SDK wrote it: without userinfo, query or fragment.
 *
 * @example
 * ```ts
 * mcpRedirectAdvice("... Redirect to https://evil.example/x not followed (redirectPolicy: 'same-origin')", { url: 'https://mcp.example/mcp' });
 * // "... Redirect to https://evil.example/x not followed: rxharness follows a redirect only within the server's origin ..."
 * ```
 */
export function mcpRedirectAdvice(message: string, config: McpServerConfig): string {
  if (isStdioServer(config) || !message.includes('redirectPolicy')) return message;
  return message.replace(UNFOLLOWED, (_all, https: string | undefined, target: string | undefined) => {
    if (https !== undefined) {
      return `Redirect to plain http not followed: rxharness never follows one from https to http; if the server is at ${https}, set its \`url\` to that`;
    }
    const to = target ?? '';
    if (originOf(to) !== undefined && originOf(to) === originOf(config.url)) {
      return `Redirect to ${to} not followed: rxharness follows at most ${MOST_FOLLOWED} redirects within the server's origin (for a POST, only 307 and 308); set the server's \`url\` to the address it answers at`;
    }
    return `Redirect to ${to} not followed: rxharness follows a redirect only within the server's origin, so that its headers and calls reach no other host; if you trust ${to}, set the server's \`url\` to it`;
  });
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}
