// A stand-in for the Gemini API on 127.0.0.1 (what Gemini CLI calls) that scripts a model's shell
// calls: each `:streamGenerateContent` request is answered with the next scripted command as a
// `run_shell_command` function call (after the previous one's `functionResponse` came back), then
// with text; answers are server-sent `data:` events. `:generateContent` (Gemini CLI's routing and
// other one-shot calls) is answered with text.
import { createServer } from 'node:http';

const USAGE = { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15, cachedContentTokenCount: 0, thoughtsTokenCount: 0, toolUsePromptTokenCount: 0 };

/** Starts the stand-in: `{ url, requests, results, close }`; `results` holds each call's response by command. */
export async function startGeminiStandIn(commands) {
  const requests = [];
  const results = new Map();
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      let request = {};
      try {
        request = JSON.parse(body || '{}');
      } catch {
        // Answered below as any other request.
      }
      const url = new URL(req.url, 'http://127.0.0.1');
      requests.push({ path: url.pathname, request });
      const text = (t) => ({ candidates: [{ content: { role: 'model', parts: [{ text: t }] }, finishReason: 'STOP', index: 0 }], usageMetadata: USAGE });
      if (url.pathname.endsWith(':generateContent')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        // The router asks which model to use; anything else gets plain text.
        return res.end(JSON.stringify(text('{"reasoning": "a scripted turn", "model_choice": "flash", "complexity_reasoning": "a scripted turn", "complexity_score": 10}')));
      }
      if (!url.pathname.endsWith(':streamGenerateContent')) {
        res.writeHead(404, { 'content-type': 'application/json' });
        return res.end('{}');
      }
      const parts = (request.contents ?? []).flatMap((c) => c.parts ?? []);
      const calls = parts.filter((p) => p.functionCall);
      for (const response of parts.filter((p) => p.functionResponse)) {
        const index = parts.filter((p) => p.functionResponse).indexOf(response);
        const call = calls[index];
        const answer = response.functionResponse.response ?? {};
        if (call) results.set(call.functionCall.args.command, typeof answer.error === 'string' ? answer.error : `ran: ${JSON.stringify(answer)}`);
      }
      const next = commands[calls.length];
      const answer = next === undefined
        ? text('Done.')
        : { candidates: [{ content: { role: 'model', parts: [{ functionCall: { name: 'run_shell_command', args: { command: next, description: 'a scripted command' } } }] }, finishReason: 'STOP', index: 0 }], usageMetadata: USAGE };
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write(`data: ${JSON.stringify(answer)}\n\n`);
      res.end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    requests,
    results,
    close: () => new Promise((resolve) => { server.closeAllConnections?.(); server.close(() => resolve()); }),
  };
}
