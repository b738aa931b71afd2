// The engine playground: edit a policy, type a call, see the decision, press a permission button.
import init, { Policy, applyPolicyChange } from '/pkg/engine/web/toolgate_engine.js';

const $ = (id) => document.getElementById(id);
const starter = {
  layers: [
    { name: 'user', kind: 'user', tools: {
      terminal: {
        alwaysAllow: [{ pattern: '^git\\s+(status|log|diff)\\b' }, { pattern: '^ls\\b' }],
        alwaysConfirm: [{ pattern: '^git\\s+push' }],
        alwaysDeny: [{ pattern: '^curl\\b' }],
      },
      edit_file: { alwaysAllow: [{ pattern: '^src/' }], alwaysDeny: [{ pattern: '\\.env($|\\.)' }] },
    } },
    { name: 'project', kind: 'project', tools: {} },
  ],
};

function li(text, className) {
  const el = document.createElement('li');
  el.textContent = text;
  if (className) el.className = className;
  return el;
}

function render() {
  let spec;
  try {
    spec = JSON.parse($('policy').value);
  } catch (e) {
    $('policy-problems').replaceChildren(li(`JSON: ${e.message}`));
    return;
  }
  let policy;
  try {
    policy = new Policy(spec);
    // Rules that did not compile fail closed; each problem points at its place in the spec.
    $('policy-problems').replaceChildren(...policy.problems.map((p) => li(`${p.path ?? ''}: ${p.message}`)));
    const tool = $('tool').value, input = $('input').value;
    const d = policy.decide(tool, input);
    $('decision').className = `decision ${{ allow: 'runs', confirm: 'asks', deny: 'refused' }[d.outcome]}`;
    $('verdict').textContent = { allow: 'Runs without asking', confirm: 'Asks the user', deny: 'Refused' }[d.outcome];
    $('reason').textContent = `${d.reason}: ${d.message}`;
    // Items without hazards omit the field.
    const hazards = (i) => i.hazards ?? [];
    $('items').replaceChildren(...d.items.map((i) => li(
      `${i.text}${i.allowedBy ? `  ✓ ${i.allowedBy.pattern}` : ''}${hazards(i).length ? `  ⚠ ${hazards(i).map((h) => h.why).join('; ')}` : ''}`)));
    $('ignored').replaceChildren(...(d.ignored ?? []).map((i) => li(i.message)));
    const buttons = d.outcome === 'confirm' ? policy.permissionOptions(tool, input).filter((o) => o.change) : [];
    $('options').replaceChildren(...buttons.map((o) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = o.label;
      b.addEventListener('click', () => {
        $('policy').value = JSON.stringify(applyPolicyChange(JSON.parse($('policy').value), o.change), null, 2);
        render();
      });
      return b;
    }));
  } catch (e) {
    $('policy-problems').replaceChildren(li(e.message));
  } finally {
    policy?.free();
  }
}

await init();
$('policy').value = JSON.stringify(starter, null, 2);
for (const el of document.querySelectorAll('input, textarea, select')) el.addEventListener('input', render);
render();
document.body.dataset.ready = 'true';
