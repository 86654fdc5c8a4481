/** The encodings a response may come in, as fetch asks for them too. */
const ACCEPT_ENCODING = 'gzip, deflate, br';

/** The methods whose request Node sends without a body unless told its length (`useChunkedEncodingByDefault` false). */
const UNFRAMED_METHODS = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT']);

/** What a request's head takes from its URL, worked out once per URL. */
export interface HeadTarget {
  /** The `Host` header: the URL's host, an IPv6 literal bracketed, the port only when it is not the scheme's (as Node would write it). */
  readonly host: string;
  /** The `Authorization` the URL's credentials make (`user:pass@`), sent when the request brings none (as Node would). */
  readonly basicAuth: string | undefined;
}

/**
 * The request headers as a flat list (`[name, value, ...]`), with `accept-encoding`,
 * `content-length`, `host` and the URL's credentials added. A list, not an object: Node then
 * writes it straight into the request's head and keeps no header dictionary of its own for
 * the reply's whole life, and the agent's copies of the options (its listeners on a new
 * socket, as long as the socket lives) hold this one array (docs/performance.md, "Stop 59:
 * memory per live run"). Node adds neither `Host` nor `Authorization` to a list (nor
 * `Content-Length`, which it would only add to a body it is given at once): they are added
 * here as Node adds them to an object, after the caller's and only when the caller sent none.
 */
export function requestHeaders(given: RequestInit['headers'], method: string, body: string | Uint8Array | undefined, target: HeadTarget): string[] {
  const headers: string[] = [];
  let acceptEncoding = false;
  let host = false;
  let authorization = false;
  let framed = false; // a length or an encoding the caller gave the body
  // The openai client hands a `Headers` it built (and sorted, for its debug log) already:
  // read it as it is rather than copy it into a new one (a copy per request, each header
  // validated again, sorted again). Any other form goes through `Headers` for the same result:
  // names lower-cased, repeated values joined.
  (given instanceof Headers ? given : new Headers(given)).forEach((value, name) => {
    if (name === 'content-length' && body !== undefined) return; // the length of the body sent, below
    if (name === 'accept-encoding') acceptEncoding = true;
    else if (name === 'host') host = true;
    else if (name === 'authorization') authorization = true;
    else if (name === 'content-length' || name === 'transfer-encoding') framed = true;
    headers.push(name, value);
  });
  if (!acceptEncoding) headers.push('accept-encoding', ACCEPT_ENCODING);
  if (body !== undefined) headers.push('content-length', String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength));
  // A request without a body that Node would frame as chunked: the empty length Node gives it when it ends one made with an object.
  else if (!framed && !UNFRAMED_METHODS.has(method.toUpperCase())) headers.push('Content-Length', '0');
  if (!host) headers.push('Host', target.host);
  if (!authorization && target.basicAuth !== undefined) headers.push('Authorization', target.basicAuth);
  return headers;
}
