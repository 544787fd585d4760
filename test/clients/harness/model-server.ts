// The scripted model server: the model both clients talk to, on 127.0.0.1. It answers Anthropic
// Messages (Claude Code) and OpenAI Responses (Codex) with the script's turns, streamed as the real
// APIs stream them, and records every request it received: tests assert on those. It is also the
// clients' HTTP(S) proxy, so a request meant for anywhere but loopback is recorded and refused.
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { messagesEvents, messagesJson, readMessagesRequest } from './anthropic-messages.js';
import type { ModelRequest, Turn } from './model-turn.js';
import { readResponsesRequest, responsesEvents } from './openai-responses.js';

/** The largest request body the server reads: a client's whole context, tools included, is far below it. */
const MAX_BODY_BYTES = 16 * 1024 * 1024;

export type Script = (request: ModelRequest) => Turn;

export interface ModelServer {
  /** http://127.0.0.1:PORT */
  url: string;
  /** Every model request received, in order. */
  requests: ModelRequest[];
  /** What the clients tried to reach past loopback through the proxy (CONNECT host:port, or an absolute URL). */
  escapes: string[];
  /** The script that answers the agent's own requests from now on (side queries get a short text). */
  play(script: Script): void;
  close(): Promise<void>;
}

export async function startModelServer(): Promise<ModelServer> {
  const requests: ModelRequest[] = [];
  const escapes: string[] = [];
  let script: Script = () => ({ text: 'done' });
  let seq = 0;

  const server = createServer((req, res) => {
    if (req.url?.startsWith('http')) {
      escapes.push(`${req.method ?? ''} ${req.url}`);
      res.writeHead(403).end();
      return;
    }
    void readBody(req).then(
      (raw) => answer(req, res, raw),
      (error: Error) => res.writeHead(413, { 'content-type': 'text/plain' }).end(error.message),
    );
  });
  server.on('connect', (req: IncomingMessage, socket) => {
    escapes.push(`CONNECT ${req.url ?? ''}`);
    socket.on('error', () => undefined); // a client that gives up resets the tunnel it asked for
    socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
  });

  function answer(req: IncomingMessage, res: ServerResponse, raw: string): void {
    const path = (req.url ?? '').split('?')[0]!;
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `the scripted model server reads JSON bodies; ${path} sent ${raw.length} bytes that are not` } }));
      return;
    }
    if (path === '/v1/messages/count_tokens') {
      json(res, { input_tokens: Math.ceil(raw.length / 4) });
      return;
    }
    const protocol = path === '/v1/messages' ? 'anthropic' : path === '/v1/responses' ? 'responses' : undefined;
    if (!protocol) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `the scripted model server answers /v1/messages and /v1/responses, not ${path}` } }));
      return;
    }
    const read = protocol === 'anthropic' ? readMessagesRequest(body) : readResponsesRequest(body);
    const request: ModelRequest = { protocol, path, headers: req.headers, body, receivedAt: Date.now(), replyCallIds: [], ...read, text: raw };
    requests.push(request);
    seq += 1;
    const turn = request.main ? script(request) : { text: 'Scripted reply.' };
    const model = typeof body.model === 'string' ? body.model : 'scripted';
    if (protocol === 'anthropic' && body.stream !== true) {
      json(res, messagesJson('text' in turn ? turn.text : 'Scripted reply.', model, seq));
      request.repliedAt = Date.now();
      return;
    }
    const { events, callIds } = protocol === 'anthropic' ? messagesEvents(turn, model, seq) : responsesEvents(turn, seq);
    request.replyCallIds = callIds;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const [event, data] of events) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    res.end(() => (request.repliedAt = Date.now()));
  }

  server.on('clientError', (_error, socket) => socket.destroy());
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    escapes,
    play: (next) => (script = next),
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

function json(res: ServerResponse, value: object): void {
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(value));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error(`request body over ${MAX_BODY_BYTES} bytes`));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
