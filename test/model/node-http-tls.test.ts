import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelFinish } from '../../src/model/chat-model.js';
import { ModelError } from '../../src/model/model-error.js';
import { agentFor } from '../../src/model/node-http-fetch.js';
import { outcomeOf } from '../support/collect.js';
import { HELLO, modelAt, sseReply } from './node-http-support.js';

// An https baseURL goes through node:https, with TLS checked: a real TLS server with a
// self-signed certificate made for this file (openssl, as on any machine with Node).

let server: https.Server;
let url: string;
let cert: string;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rxharness-tls-'));
  try {
    const [key, crt] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
    const subject = ['-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'];
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', ...subject, '-keyout', key, '-out', crt], { stdio: 'ignore' });
    cert = readFileSync(crt, 'utf8');
    server = https.createServer({ key: readFileSync(key), cert }, (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' }).end(sseReply(['over ', 'tls']));
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('node:http transport over https', () => {
  it('refuses a certificate nobody vouches for, and says so', async () => {
    const { error } = await outcomeOf(modelAt(url).stream(HELLO));
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).message).toMatch(/^model "m": connection failed \(self[- ]signed certificate\)$/);
  });

  it('streams over TLS once the certificate is trusted', async () => {
    // The shared https agent's options go into every connection it makes: trust this certificate for this test only.
    const agent = agentFor('https:') as https.Agent;
    agent.options.ca = cert;
    try {
      const chunks = await lastValueFrom(modelAt(url).stream(HELLO).pipe(toArray()));
      expect((chunks.at(-1) as ModelFinish).text).toBe('over tls');
    } finally {
      delete agent.options.ca;
      server.closeAllConnections();
    }
  });
});
