// The playground: the web build of toolgate, initialised once, deciding on every keystroke.
import init, { McpPolicy, addToAllowlist, normalizeAllowlist, splitToolName } from '/pkg/web/toolgate.js';

const $ = (id) => document.getElementById(id);
const lines = (text) => text.split('\n').map((l) => l.trim()).filter((l) => l.length > 0);
const flags = ['mcpToolsProtection', 'playwrightProtection', 'isDisabledByAdmin', 'isAdminControlled'];

function settings() {
  const s = { mcpAllowedTools: lines($('allowlist').value), adminMcpAllowedTools: lines($('admin-allowlist').value) };
  for (const f of flags) s[f] = $(f).checked;
  return s;
}

function call() {
  const split = splitToolName($('tool').value, { fallbackServerId: $('server').value });
  return { server: split.serverId ?? '', tool: split.toolName };
}

function showEntryProblems(list) {
  const { invalid } = normalizeAllowlist(list);
  $('entry-problems').replaceChildren(...invalid.map((e) => {
    const li = document.createElement('li');
    li.textContent = `entry ${e.index + 1} "${e.entry}": ${e.message}`;
    return li;
  }));
}

function render() {
  const s = settings();
  showEntryProblems(s.mcpAllowedTools);
  const { server, tool } = call();
  let policy;
  try {
    policy = new McpPolicy(s);
    const d = policy.decide(server, tool, $('mode').value);
    $('decision').className = `decision ${d.needApproval ? 'asks' : 'runs'}`;
    $('verdict').textContent = d.needApproval ? 'Asks the user' : 'Runs without asking';
    $('reason').textContent = `${d.reason}: ${d.message}`;
    $('matched').textContent = d.matched ? `Matched ${d.matched.list} entry #${d.matched.index}: ${d.matched.entry}` : '';
    $('add').hidden = d.candidatesForAllowlist.length === 0;
  } catch (e) {
    $('decision').className = 'decision asks';
    $('verdict').textContent = 'Error';
    $('reason').textContent = e.message;
  } finally {
    policy?.free();
  }
}

await init();
$('add').addEventListener('click', () => {
  const { server, tool } = call();
  const out = addToAllowlist(lines($('allowlist').value), server, tool);
  $('allowlist').value = out.list.join('\n');
  render();
});
for (const el of document.querySelectorAll('input, textarea, select')) el.addEventListener('input', render);
render();
document.body.dataset.ready = 'true';
