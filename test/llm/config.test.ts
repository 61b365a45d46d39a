/** The LLM settings src/config.ts builds from Firecrawl's variable names (docs/llm.md "Configuration"). */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';

describe('LLM configuration', () => {
  it('none of the variables: no provider (the offline paths answer)', () => {
    expect(loadConfig({}).llm).toBeUndefined();
  });

  it('OPENAI_BASE_URL + OPENAI_API_KEY + MODEL_NAME: the OpenAI-compatible provider with the defaults', () => {
    expect(loadConfig({ OPENAI_BASE_URL: 'http://localhost:8000/v1/', OPENAI_API_KEY: 'sk-x', MODEL_NAME: 'qwen2.5' }).llm).toEqual({
      provider: 'openai',
      baseUrl: 'http://localhost:8000/v1',
      apiKey: 'sk-x',
      model: 'qwen2.5',
      structuredOutput: 'auto',
      maxConcurrent: 4,
      contextTokens: 8192,
      maxRetries: 3,
      zdr: true,
    });
  });

  it('OLLAMA_BASE_URL: Ollama, without a key even when one is set; OPENAI_BASE_URL wins when both are set', () => {
    const ollama = loadConfig({ OLLAMA_BASE_URL: 'http://127.0.0.1:11434', MODEL_NAME: 'llama3.1', OPENAI_API_KEY: 'sk-x', LLM_ZDR: 'false', LLM_STRUCTURED_OUTPUT: 'tool', LLM_CONTEXT_TOKENS: '32768', LLM_MAX_CONCURRENT: '1' }).llm;
    expect(ollama).toMatchObject({ provider: 'ollama', baseUrl: 'http://127.0.0.1:11434', model: 'llama3.1', zdr: false, structuredOutput: 'tool', contextTokens: 32768, maxConcurrent: 1 });
    expect(ollama?.apiKey).toBeUndefined();
    expect(loadConfig({ OLLAMA_BASE_URL: 'http://127.0.0.1:11434', OPENAI_BASE_URL: 'http://127.0.0.1:8000/v1', MODEL_NAME: 'm' }).llm?.provider).toBe('openai');
  });

  it("a key alone is OpenAI's API with Firecrawl's default model", () => {
    expect(loadConfig({ OPENAI_API_KEY: 'sk-x' }).llm).toMatchObject({ provider: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini' });
  });

  it('a base URL without MODEL_NAME, or a bad value, fails the start naming the variable', () => {
    expect(() => loadConfig({ OLLAMA_BASE_URL: 'http://127.0.0.1:11434' })).toThrow(/MODEL_NAME: required when OLLAMA_BASE_URL is set/);
    expect(() => loadConfig({ OPENAI_BASE_URL: 'http://x/v1', MODEL_NAME: 'm', LLM_STRUCTURED_OUTPUT: 'xml' })).toThrow(/LLM_STRUCTURED_OUTPUT/);
    expect(() => loadConfig({ OPENAI_BASE_URL: 'ftp://x/v1', MODEL_NAME: 'm' })).toThrow(/OPENAI_BASE_URL/);
    expect(() => loadConfig({ LLM_ZDR: 'no' })).toThrow(/LLM_ZDR/);
  });

  it('the key is in no error message about the configuration', () => {
    try {
      loadConfig({ OPENAI_BASE_URL: 'http://x/v1', OPENAI_API_KEY: 'sk-secret-value-123', LLM_CONTEXT_TOKENS: '10' });
      expect.unreachable();
    } catch (err) {
      expect((err as Error).message).toContain('LLM_CONTEXT_TOKENS');
      expect((err as Error).message).not.toContain('sk-secret-value-123');
    }
  });
});
