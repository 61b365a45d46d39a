/**
 * A fake OpenAI-compatible Chat Completions server (POST /v1/chat/completions) speaking the real
 * wire format: `choices[0].message` with `content` or `tool_calls`, `usage`, error bodies
 * `{error: {message, type, param, code}}`, 401 for a wrong bearer key, 429 with `retry-after`,
 * and 400 for a `response_format` type or `tools` the configured server does not support, as
 * llama.cpp, vLLM or LM Studio builds without those features answer.
 */
import type http from 'node:http';
import { startFakeServer, type FakeServerCore, type RecordedRequest, type ScriptedReply } from './fake-llm-server.ts';

export { promptText, type RecordedRequest, type ScriptedReply } from './fake-llm-server.ts';

export interface FakeOpenAiOptions {
  /** What the server accepts; default everything. */
  supports?: { jsonSchema?: boolean; jsonObject?: boolean; tools?: boolean };
  /** The bearer key it expects; undefined: any or none. */
  apiKey?: string;
  model?: string;
}

export interface FakeOpenAi extends FakeServerCore {
  /** OPENAI_BASE_URL: …/v1. */
  baseUrl: string;
  /** Requests to /v1/chat/completions only. */
  chats(): RecordedRequest[];
}

function errorBody(message: string, type: string, code: string | null, param: string | null = null): string {
  return JSON.stringify({ error: { message, type, param, code } });
}

function send(res: http.ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(body);
}

export async function startFakeOpenAi(options: FakeOpenAiOptions = {}): Promise<FakeOpenAi> {
  const supports = { jsonSchema: true, jsonObject: true, tools: true, ...options.supports };
  let nextId = 1;
  const core = await startFakeServer(
    (req, reply: ScriptedReply, res) => {
      if (options.apiKey !== undefined && req.headers.authorization !== `Bearer ${options.apiKey}`) {
        const given = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
        // As OpenAI does: the message quotes the key's ends.
        send(res, 401, errorBody(`Incorrect API key provided: ${given.slice(0, 3)}*****${given.slice(-4)}. You can find your API key at https://platform.openai.com/account/api-keys.`, 'invalid_request_error', 'invalid_api_key'));
        return;
      }
      const body = req.body;
      if (typeof body.model !== 'string' || !Array.isArray(body.messages)) {
        send(res, 400, errorBody("'model' and 'messages' are required properties", 'invalid_request_error', null));
        return;
      }
      const format = (body.response_format as { type?: string } | undefined)?.type;
      if ((format === 'json_schema' && !supports.jsonSchema) || (format === 'json_object' && !supports.jsonObject)) {
        const allowed = ['text', ...(supports.jsonObject ? ['json_object'] : []), ...(supports.jsonSchema ? ['json_schema'] : [])];
        send(res, 400, errorBody(`Invalid value for 'response_format.type': '${format}'. Supported values are: ${allowed.map((a) => `'${a}'`).join(', ')}.`, 'invalid_request_error', 'invalid_value', 'response_format.type'));
        return;
      }
      if (body.tools !== undefined && !supports.tools) {
        send(res, 400, errorBody('This model does not support tools.', 'invalid_request_error', null, 'tools'));
        return;
      }
      if (reply.status && reply.status >= 400) {
        const type = reply.status === 429 ? 'requests' : reply.status >= 500 ? 'server_error' : 'invalid_request_error';
        const code = reply.status === 429 ? 'rate_limit_exceeded' : null;
        send(res, reply.status, errorBody(reply.error ?? `HTTP ${reply.status}`, type, code), reply.retryAfter ? { 'retry-after': reply.retryAfter } : {});
        return;
      }
      const content = reply.content ?? '';
      const tools = body.tools as { function?: { name?: string } }[] | undefined;
      // A forced function (`tool_choice: {type: 'function', …}`, the structured-output tool strategy) is answered with it.
      const forced = typeof body.tool_choice === 'object' && body.tool_choice !== null ? tools?.[0]?.function?.name : undefined;
      const scripted = reply.toolCalls?.map((c, i) => ({
        id: `call_${nextId}_${i}`,
        type: 'function',
        function: { name: c.name, arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments) },
      }));
      const toolName = scripted && scripted.length > 0 ? scripted[0]?.function.name : forced;
      const message =
        scripted && scripted.length > 0
          ? { role: 'assistant', content: reply.content ?? null, tool_calls: scripted, refusal: null }
          : forced !== undefined
            ? { role: 'assistant', content: null, tool_calls: [{ id: `call_${nextId}`, type: 'function', function: { name: forced, arguments: content } }], refusal: null }
            : { role: 'assistant', content, refusal: null };
      const promptTokens = reply.promptTokens ?? Math.ceil(req.text.length / 4);
      const completionTokens = reply.completionTokens ?? Math.ceil(content.length / 4);
      send(
        res,
        200,
        JSON.stringify({
          id: `chatcmpl-${nextId++}`,
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: options.model ?? body.model,
          system_fingerprint: 'fp_folio_fake',
          choices: [{ index: 0, message, logprobs: null, finish_reason: toolName !== undefined ? 'tool_calls' : 'stop' }],
          usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
        }),
      );
    },
    (method, path) => method === 'POST' && path === '/v1/chat/completions',
  );
  return {
    ...core,
    baseUrl: `${core.url}/v1`,
    chats: () => core.requests.filter((r) => r.path === '/v1/chat/completions'),
  };
}
