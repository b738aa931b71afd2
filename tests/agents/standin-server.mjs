// What the model stand-ins share: an HTTP server on 127.0.0.1 that reads each request's JSON body,
// keeps it, and lets the stand-in answer — as JSON or as a stream of server-sent events.
import { createServer } from 'node:http';

/**
 * Starts a stand-in server on a free port of 127.0.0.1. Each request's body is read as JSON (`{}`
 * when it is empty or not JSON: answered as any other request), kept in `requests` as
 * `{ path, request }`, then passed to `answer({ path, request }, res)`.
 * Returns `{ url, requests, close }`.
 */
export async function startStandInServer(answer) {
  const requests = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      let request = {};
      try {
        request = JSON.parse(body || '{}');
      } catch {
        // Answered as any other request.
      }
      const path = new URL(req.url, 'http://127.0.0.1').pathname;
      requests.push({ path, request });
      answer({ path, request }, res);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    requests,
    close: () => new Promise((resolve) => { server.closeAllConnections?.(); server.close(() => resolve()); }),
  };
}

/** Answers with `value` as JSON. */
export function json(res, value, status = 200) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}

/** Answers a path the stand-in does not serve: 404 with `{}`. */
export const notFound = (res) => json(res, {}, 404);

/**
 * Opens a stream of server-sent events on `res`: `event(type, fields)` writes a named event whose
 * data is `{ type, ...fields }` (the Anthropic and OpenAI APIs' form), `data(value)` an unnamed
 * one (the Gemini API's), `end()` closes the stream.
 */
export function eventStream(res) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  return {
    event: (type, fields) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...fields })}\n\n`),
    data: (value) => res.write(`data: ${JSON.stringify(value)}\n\n`),
    end: () => res.end(),
  };
}
