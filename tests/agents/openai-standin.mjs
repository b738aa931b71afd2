// A stand-in for OpenAI's Responses API on 127.0.0.1 (what Codex CLI calls) that scripts a model's
// shell calls: each `POST /v1/responses` is answered with the next scripted command as an
// `exec_command` function call (after the previous call's `function_call_output` came back), then
// with a message that ends the turn, as server-sent events (`response.created`,
// `response.output_item.added`, `response.output_item.done`, `response.completed`).
import { eventStream, notFound, startStandInServer } from './standin-server.mjs';

/** Starts the stand-in: `{ url, requests, results, close }`; `results` holds each call's output text by command. */
export async function startResponsesStandIn(commands) {
  const results = new Map();
  let ids = 0;
  const server = await startStandInServer(({ path, request }, res) => {
    if (!path.endsWith('/responses')) return notFound(res);
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
    const events = eventStream(res);
    events.event('response.created', { response: response('in_progress', []) });
    events.event('response.output_item.added', { output_index: 0, item });
    events.event('response.output_item.done', { output_index: 0, item });
    events.event('response.completed', {
      response: { ...response('completed', [item]), usage: { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 } },
    });
    events.end();
  });
  return { ...server, results };
}
