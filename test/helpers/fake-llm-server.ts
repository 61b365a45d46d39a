/** What the fake LLM servers share: a loopback HTTP server, a request log and scripted replies. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
  /** Raw body text (for "the key is never in the body" checks). */
  text: string;
}

export interface ScriptedReply {
  /** Assistant text (for the tool strategy: sent as the tool call's arguments when a tool call was forced). */
  content?: string;
  /** Tool calls the assistant makes (the agent's loop): `arguments` as JSON text, or an object (sent as its JSON). */
  toolCalls?: { name: string; arguments: string | Record<string, unknown> }[];
  /** HTTP status of an error reply. */
  status?: number;
  /** Error message of an error reply. */
  error?: string;
  /** `retry-after` header. */
  retryAfter?: string;
  /** The connection is destroyed without an answer. */
  drop?: boolean;
  /** Waits before answering. */
  delayMs?: number;
  /** Token counts reported (default: from the lengths). */
  promptTokens?: number;
  completionTokens?: number;
}

export type Responder = (req: RecordedRequest) => ScriptedReply;

export interface FakeServerCore {
  url: string;
  requests: RecordedRequest[];
  /** Replies used first, in order, before the responder. */
  enqueue(...replies: ScriptedReply[]): void;
  /** The reply to anything not enqueued. */
  respond(responder: Responder): void;
  /** Requests whose connection is still open. */
  open(): number;
  /** The most requests open at once so far. */
  peak(): number;
  close(): Promise<void>;
}

export async function startFakeServer(
  handle: (req: RecordedRequest, reply: ScriptedReply, res: http.ServerResponse) => void,
  route: (method: string, path: string) => boolean,
): Promise<FakeServerCore> {
  const requests: RecordedRequest[] = [];
  const queue: ScriptedReply[] = [];
  let responder: Responder = () => ({ content: '{}' });
  let inFlight = 0;
  let peak = 0;
  const sockets = new Set<import('node:net').Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        // left empty: the handler answers 400
      }
      const recorded: RecordedRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, text };
      requests.push(recorded);
      if (!route(recorded.method, recorded.path)) {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `Unknown request URL: ${recorded.method} ${recorded.path}`, type: 'invalid_request_error', code: 'unknown_url' } }));
        return;
      }
      const reply = queue.shift() ?? responder(recorded);
      inFlight++;
      peak = Math.max(peak, inFlight);
      res.on('close', () => inFlight--);
      const go = () => {
        if (reply.drop) {
          req.socket.destroy();
          return;
        }
        handle(recorded, reply, res);
      };
      if (reply.delayMs) setTimeout(go, reply.delayMs);
      else go();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  // The client (undici) closes idle keep-alive sockets after 4 s; a server closing them at 5 s races
  // a reuse (ECONNRESET, retried by folio), and a scripted reply could go to the dropped request.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    enqueue: (...replies) => queue.push(...replies),
    respond: (r) => {
      responder = r;
    },
    open: () => inFlight,
    peak: () => peak,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The text of every message of a chat request, joined. */
export function promptText(req: RecordedRequest): string {
  const messages = (req.body.messages ?? []) as { content?: unknown }[];
  return messages.map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n');
}
