/** One HTTP request on a keep-alive agent, the body read whole: the latency benches' client. */
import http from 'node:http';

export function send(
  agent: http.Agent,
  url: string,
  method: string,
  headers: Record<string, string>,
  body: Buffer | string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
