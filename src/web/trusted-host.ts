import { BlockList, isIP } from 'node:net';

/**
 * The loopback addresses: 127.0.0.0/8 and ::1. Node's `BlockList` also matches their
 * IPv4-mapped IPv6 forms (`::ffff:127.0.0.1`) and any spelling of ::1 (`0:0:0:0:0:0:0:1`).
 */
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** What a `Host` header may hold: a name or address and a port; nothing else (no `@`, `/`, spaces). */
const HOST_HEADER = /^[A-Za-z0-9.\-[\]:]{1,300}$/;

/**
 * Whether `address`, an IP address in any spelling, is a loopback one: anything in
 * 127.0.0.0/8, ::1 however written, and their IPv4-mapped forms. A name or anything else is
 * not. Give it the address a server actually bound (`server.address().address`): Node has
 * resolved `localhost` or `127.1` to an address by then.
 *
 * @example
 * ```ts
 * isLoopbackAddress('127.0.0.1'); // true
 * isLoopbackAddress('0:0:0:0:0:0:0:1'); // true
 * isLoopbackAddress('::ffff:127.0.0.1'); // true
 * isLoopbackAddress('0.0.0.0'); // false
 * ```
 */
export function isLoopbackAddress(address: string): boolean {
  const unbracketed = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const family = isIP(unbracketed);
  if (family === 0) return false;
  return LOOPBACK.check(unbracketed, family === 6 ? 'ipv6' : 'ipv4');
}

/**
 * Whether `address` (an address a server bound) listens on every interface: `0.0.0.0` or
 * `::` (in any spelling).
 *
 * @example
 * ```ts
 * isWildcardAddress('::'); // true
 * ```
 */
export function isWildcardAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return address === '0.0.0.0';
  return family === 6 && /^[0:]+$/.test(address);
}

/**
 * Whether a request's `Host` header names this machine by a loopback name: `localhost` or a
 * loopback address in any spelling a browser would send (`127.1`, `[::1]`,
 * `[0:0:0:0:0:0:0:1]`, `[::ffff:127.0.0.1]`), with any port. The header is read as a browser
 * reads a URL's host (the WHATWG parser normalises `127.1` and `0x7f.1` to `127.0.0.1`). A
 * page on another site that points its own DNS name at 127.0.0.1 (DNS rebinding) sends its
 * own name, and is refused.
 *
 * @example
 * ```ts
 * trustedHost('localhost:4173'); // true
 * trustedHost('evil.example:4173'); // false
 * ```
 */
export function trustedHost(header: string | undefined): boolean {
  if (header === undefined || !HOST_HEADER.test(header)) return false;
  let hostname: string;
  try {
    hostname = new URL(`http://${header}/`).hostname.toLowerCase();
  } catch {
    return false; // not a host at all (`[zz]`, `a:b:c`)
  }
  return hostname === 'localhost' || isLoopbackAddress(hostname);
}
