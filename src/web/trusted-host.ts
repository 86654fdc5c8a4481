/** Whether `host` (an address to listen on) is a loopback one. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * Whether a request's `Host` header names this machine by a loopback name (`localhost`, a
 * `127.x.x.x` address, `[::1]`), with any port. A page on another site that points its own
 * DNS name at 127.0.0.1 (DNS rebinding) sends its own name, and is refused.
 *
 * @example
 * ```ts
 * trustedHost('localhost:4173'); // true
 * trustedHost('evil.example:4173'); // false
 * ```
 */
export function trustedHost(header: string | undefined): boolean {
  if (header === undefined) return false;
  const name = header.startsWith('[') ? header.slice(0, header.indexOf(']') + 1) : header.split(':', 1)[0]!;
  return name.toLowerCase() === 'localhost' || name === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}
