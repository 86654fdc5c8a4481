import { describe, expect, it } from 'vitest';
import { checkMcpServers } from '../../src/mcp/mcp-server-config.js';
import { shownUrl } from '../../src/text/shown-url.js';

// A url in a message is shown by shownUrl alone, and shows no part of a password or key,
// parsed or not: when it cannot tell where the user part ends, it shows less.

/** The message an MCP config with `url` is refused with. */
function refusalOf(url: string): string {
  try {
    checkMcpServers({ s: { url } });
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error(`${url} was accepted`);
}

describe('shownUrl: a url with no host (opaque, or no scheme)', () => {
  it('reads "admin:hunter2@" as a user and password, not a scheme and a path', () => {
    expect(shownUrl('admin:hunter2@mcp.internal:3000/mcp?key=s3cretKey')).toBe('mcp.internal:3000/mcp');
  });

  it('shows a scheme-less host and path as written', () => {
    expect(shownUrl('localhost:8080/v1?key=abc')).toBe('localhost:8080/v1');
  });
});

describe('shownUrl: a user part holding "/", "?" or "#"', () => {
  it('cuts it at the last "@", an "@" in it included', () => {
    expect(shownUrl('http://alice:hun@ter2@host/v1?key=k')).toBe('http://host/v1');
  });

  it('shows nothing of it after a "/", "?" or "#", which may be a path\'s or a query\'s as well', () => {
    const ambiguous = ['http://alice:hunter/2@host/v1?key=k', 'http://hun/ter2@host/v1', 'http://host/@scope/pkg'];
    for (const url of [...ambiguous, 'http://alice:hun#ter2@host/v1', 'http://alice:hunter2?x@host/v1', 'http://hun#ter2@host/v1', 'http://host/v1?mail=a@b&key=s3cret']) {
      expect(shownUrl(url)).toBe('(a url that cannot be read)');
    }
  });
});

describe('MCP config: a refused url is shown by shownUrl, parsed or not', () => {
  it('a scheme-less url shows neither its password nor its key', () => {
    expect(refusalOf('admin:hunter2@mcp.internal:3000/mcp')).toContain('must be an http or https url, got "mcp.internal:3000/mcp"');
    expect(refusalOf('admin:hunter2@mcp.internal:3000/mcp?key=s3cretKey')).not.toMatch(/hunter2|s3cret|admin/);
  });

  it('an http url no parser reads (a bad port, a space) shows neither', () => {
    expect(refusalOf('http://alice:hunter2@mcp.internal:99999/mcp?key=s3cretKey')).toContain('got "http://mcp.internal:99999/mcp"');
    expect(refusalOf('http://alice:hunter2@mcp internal/mcp?key=s3cretKey')).toContain('got "http://mcp internal/mcp"');
  });
});
