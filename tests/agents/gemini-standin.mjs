// A stand-in for the Gemini API on 127.0.0.1 (what Gemini CLI calls) that scripts a model's shell
// calls: each `:streamGenerateContent` request is answered with the next scripted command as a
// `run_shell_command` function call (after the previous one's `functionResponse` came back), then
// with text; answers are server-sent `data:` events. `:generateContent` (Gemini CLI's routing and
// other one-shot calls) is answered with text.
import { eventStream, json, notFound, startStandInServer } from './standin-server.mjs';

const USAGE = { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15, cachedContentTokenCount: 0, thoughtsTokenCount: 0, toolUsePromptTokenCount: 0 };

/** Starts the stand-in: `{ url, requests, results, close }`; `results` holds each call's response by command. */
export async function startGeminiStandIn(commands) {
  const results = new Map();
  const server = await startStandInServer(({ path, request }, res) => {
    const text = (t) => ({ candidates: [{ content: { role: 'model', parts: [{ text: t }] }, finishReason: 'STOP', index: 0 }], usageMetadata: USAGE });
    // The router asks which model to use; anything else gets plain text.
    if (path.endsWith(':generateContent')) return json(res, text('{"reasoning": "a scripted turn", "model_choice": "flash", "complexity_reasoning": "a scripted turn", "complexity_score": 10}'));
    if (!path.endsWith(':streamGenerateContent')) return notFound(res);
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
    const events = eventStream(res);
    events.data(answer);
    events.end();
  });
  return { ...server, results };
}
