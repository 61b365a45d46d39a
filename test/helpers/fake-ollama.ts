/**
 * A fake Ollama server speaking its native chat API: POST /api/chat
 * `{model, messages, format, stream: false}` → `{model, created_at, message: {role, content},
 * done: true, done_reason, prompt_eval_count, eval_count, …}`; errors as `{error: "…"}`.
 */
import type http from 'node:http';
import { startFakeServer, type FakeServerCore, type RecordedRequest, type ScriptedReply } from './fake-llm-server.ts';

export { promptText, type RecordedRequest, type ScriptedReply } from './fake-llm-server.ts';

export interface FakeOllama extends FakeServerCore {
  chats(): RecordedRequest[];
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
}

export async function startFakeOllama(): Promise<FakeOllama> {
  const core = await startFakeServer(
    (req, reply: ScriptedReply, res) => {
      const body = req.body;
      if (typeof body.model !== 'string') {
        send(res, 400, { error: 'model is required' });
        return;
      }
      if (body.stream !== false) {
        // The real server streams NDJSON by default; folio must always ask for one answer.
        send(res, 400, { error: 'this fake only answers stream:false requests' });
        return;
      }
      if (reply.status && reply.status >= 400) {
        send(res, reply.status, { error: reply.error ?? `HTTP ${reply.status}` });
        return;
      }
      const content = reply.content ?? '';
      send(res, 200, {
        model: body.model,
        created_at: new Date().toISOString(),
        // Ollama's tool calls: `function.arguments` is an object, and there is no call id.
        message: {
          role: 'assistant',
          content,
          ...(reply.toolCalls && reply.toolCalls.length > 0
            ? { tool_calls: reply.toolCalls.map((c) => ({ function: { name: c.name, arguments: typeof c.arguments === 'string' ? (JSON.parse(c.arguments) as unknown) : c.arguments } })) }
            : {}),
        },
        done_reason: 'stop',
        done: true,
        total_duration: 1_000_000,
        load_duration: 100_000,
        prompt_eval_count: reply.promptTokens ?? Math.ceil(req.text.length / 4),
        prompt_eval_duration: 100_000,
        eval_count: reply.completionTokens ?? Math.ceil(content.length / 4),
        eval_duration: 800_000,
      });
    },
    (method, path) => method === 'POST' && path === '/api/chat',
  );
  return { ...core, chats: () => core.requests.filter((r) => r.path === '/api/chat') };
}
