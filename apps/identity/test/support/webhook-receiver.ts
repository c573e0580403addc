import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach } from 'vitest';

export type Received<Body = Record<string, unknown>> = { headers: IncomingHttpHeaders; body: Body };

/**
 * A delivery gateway on a free port for the tests of a file (the text/voice and push webhooks):
 * records each POST, answers `status` (202 before each test; set it to refuse).
 */
export function useWebhookReceiver<Body = Record<string, unknown>>(path: string) {
  const receiver = { url: '', received: [] as Array<Received<Body>>, status: 202 };
  let server: Server;
  beforeAll(async () => {
    server = createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk) => {
        raw += chunk;
      });
      req.on('end', () => {
        receiver.received.push({ headers: req.headers, body: JSON.parse(raw) as Body });
        res.writeHead(receiver.status, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    receiver.received = [];
    receiver.status = 202;
  });
  return receiver;
}
