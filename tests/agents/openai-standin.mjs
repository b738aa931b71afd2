// A stand-in for OpenAI's Responses API on 127.0.0.1 (what Codex CLI calls) that scripts a model's
// shell calls: each `POST /v1/responses` is answered with the next scripted command as an
// `exec_command` function call (after the previous call's `function_call_output` came back), then
// with a message that ends the turn, as server-sent events (`response.created`,
// `response.output_item.added`, `response.output_item.done`, `response.completed`).
import { createServer } from 'node:http';

/** Starts the stand-in: `{ url, requests, results, close }`; `results` holds each call's output text by command. */
export async function startResponsesStandIn(commands) {
  const requests = [];
  const results = new Map();
  let ids = 0;
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
      const path = new URL(req.url, 'http://127.0.0.1').pathname;
      requests.push({ path, request });
      if (!path.endsWith('/responses')) {
        res.writeHead(404, { 'content-type': 'application/json' });
        return res.end('{}');
      }
      const input = Array.isArray(request.input) ? request.input : [];
      const calls = input.filter((i) => i.type === 'function_call');
      for (const output of input.filter((i) => i.type === 'function_call_output')) {
        const call = calls.find((c) => c.call_id === output.call_id);
        const text = typeof output.output === 'string' ? output.output : JSON.stringify(output.output);
        if (call) results.set(JSON.parse(call.arguments).cmd, text);
      }
      const next = commands[calls.length];
      const id = `resp_standin_${++ids}`;
      const item = next === undefined
        ? { type: 'message', id: `msg_${ids}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Done.', annotations: [] }] }
        : { type: 'function_call', id: `fc_${ids}`, call_id: `call_standin_${calls.length + 1}`, name: 'exec_command', arguments: JSON.stringify({ cmd: next }), status: 'completed' };
      const response = (status, output) => ({ id, object: 'response', created_at: Math.floor(Date.now() / 1000), status, model: request.model ?? 'gpt-standin', output });
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const send = (type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
      send('response.created', { response: response('in_progress', []) });
      send('response.output_item.added', { output_index: 0, item });
      send('response.output_item.done', { output_index: 0, item });
      send('response.completed', {
        response: { ...response('completed', [item]), usage: { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 } },
      });
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
