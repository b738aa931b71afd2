// A stand-in for the Anthropic Messages API on 127.0.0.1 that scripts a model's tool calls: each
// request that offers the Bash tool is answered with the next scripted command as a `tool_use`
// (after the previous one's `tool_result` came back), then with text that ends the turn. Answers
// stream as server-sent events in the Messages API's order (message_start, content_block_start,
// content_block_delta, content_block_stop, message_delta, message_stop); a request without
// `stream` gets the message as JSON. `/v1/messages/count_tokens` is answered too.
import { eventStream, json, notFound, startStandInServer } from './standin-server.mjs';

/** Starts the stand-in: `{ url, requests, results, close }`; `results` holds each `tool_result` text by command. */
export async function startAnthropicStandIn(commands) {
  const results = new Map();
  const server = await startStandInServer(({ path, request }, res) => {
    if (path.endsWith('/count_tokens')) return json(res, { input_tokens: 10 });
    if (!path.endsWith('/v1/messages')) return notFound(res);
    const offersBash = (request.tools ?? []).some((t) => t.name === 'Bash');
    // The commands already asked for: one per assistant turn with a tool_use.
    const turns = (request.messages ?? []).filter((m) => m.role === 'assistant' && Array.isArray(m.content) && m.content.some((b) => b.type === 'tool_use'));
    for (const message of request.messages ?? []) {
      for (const block of Array.isArray(message.content) ? message.content : []) {
        if (block.type !== 'tool_result') continue;
        const text = typeof block.content === 'string' ? block.content : (block.content ?? []).map((p) => p.text ?? '').join('');
        const use = turns.flatMap((m) => m.content).find((b) => b.type === 'tool_use' && b.id === block.tool_use_id);
        if (use) results.set(use.input.command, { text, isError: block.is_error === true });
      }
    }
    const next = offersBash ? commands[turns.length] : undefined;
    const content = next === undefined
      ? { type: 'text', text: 'Done.' }
      : { type: 'tool_use', id: `toolu_standin_${turns.length + 1}`, name: 'Bash', input: { command: next, description: 'a scripted command' } };
    const stop = next === undefined ? 'end_turn' : 'tool_use';
    if (request.stream) stream(res, request.model, content, stop);
    else json(res, message(request.model, [content], stop));
  });
  return { ...server, results };
}

let ids = 0;
function message(model, content, stopReason) {
  return {
    id: `msg_standin_${++ids}`, type: 'message', role: 'assistant', model: model ?? 'claude-standin', content,
    stop_reason: stopReason, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 5 },
  };
}

function stream(res, model, content, stopReason) {
  const events = eventStream(res);
  const send = events.event;
  send('message_start', { message: { ...message(model, [], null), usage: { input_tokens: 10, output_tokens: 1 } } });
  if (content.type === 'tool_use') {
    send('content_block_start', { index: 0, content_block: { type: 'tool_use', id: content.id, name: content.name, input: {} } });
    send('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: JSON.stringify(content.input) } });
  } else {
    send('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
    send('content_block_delta', { index: 0, delta: { type: 'text_delta', text: content.text } });
  }
  send('content_block_stop', { index: 0 });
  send('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 5 } });
  send('message_stop', {});
  events.end();
}
