import { describe, expect, it } from 'vitest';
import { mcpRedirectAdvice } from '../../src/mcp/mcp-redirect-advice.js';

// The HTTP cases are met through a real server in mcp-redirect.test.ts; an https server
// redirecting to plain http needs a certificate, so that wording is pinned down here.
describe("the SDK's note on a redirect it did not follow, worded for rxharness", () => {
  const sdkSays = (text: string) => `Error POSTing to endpoint (HTTP 301): ${text} (redirectPolicy: 'same-origin')`;

  it('from https to plain http: says where to point the url instead', () => {
    const said = mcpRedirectAdvice(sdkSays('Redirect to plain http not followed; try https://mcp.example/v2 instead'), { url: 'https://mcp.example/mcp' });
    expect(said).toBe(
      'Error POSTing to endpoint (HTTP 301): Redirect to plain http not followed: rxharness never follows one from https to http; if the server is at https://mcp.example/v2, set its `url` to that',
    );
  });

  it('leaves any other message, and a stdio server’s, as it is', () => {
    expect(mcpRedirectAdvice('Connection closed', { url: 'https://mcp.example/mcp' })).toBe('Connection closed');
    const text = sdkSays('Redirect to https://elsewhere.example/ not followed');
    expect(mcpRedirectAdvice(text, { command: 'node' })).toBe(text);
  });
});
