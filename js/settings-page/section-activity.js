// The settings page's sections of the agent's session (the host's `activity` messages): the
// grants in force (revocable), the suggested rules, and the recent decisions. Methods of the page.
import { code, h, hiddenMark, put } from './dom.js';
import { renderProblem } from './problems.js';
import { OUTCOME_TEXT, matcherOf } from './words.js';
import { visible } from './visible.js';

const SCOPE_TEXT = { session: 'for this session', timed: 'until', workspace: 'always, in this workspace', user: 'always' };
const ANSWER_SCOPE_TEXT = { ...SCOPE_TEXT, timed: 'for a limited time' };

export class ActivitySection {
  renderActivity() {
    if (!this.activity) return;
    if (this.shows('grants')) this.renderGrants();
    if (this.shows('proposals')) this.renderProposals();
    if (this.shows('log')) this.renderLog();
  }

  /** When a grant stops, in words: "for this session", "until 14:05", "always". */
  grantScope(g) {
    if (g.scope === 'timed' && g.expiresAt !== undefined) {
      return `until ${new Date(g.expiresAt).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}`;
    }
    return SCOPE_TEXT[g.scope] ?? g.scope;
  }

  renderGrants() {
    const { grants, problems } = this.activity;
    // A grant's display quotes its rules in backticks (`npm test`, `src/`): shown as code here,
    // written out (the core writes it out; a host may not have); flagged by what it allows.
    const plain = (g) => visible(g.display.replaceAll('`', ''));
    const allows = (g) => [g.tool, g.display, ...(g.rules ?? []).map((r) => String(r[matcherOf(r)] ?? ''))];
    const rows = grants.map((g) => h('tr', { 'data-grant': g.id },
      h('td', {}, code(plain(g), { written: true }), hiddenMark(allows(g))),
      h('td', {}, this.toolLabel(g.tool)),
      h('td', {}, this.grantScope(g)),
      h('td', {}, h('button', { type: 'button', class: 'tg-secondary', 'aria-label': `Revoke ${plain(g)} for ${this.toolLabel(g.tool)}`,
        onclick: (e) => { e.target.disabled = true; this.setStatus(`Revoking ${plain(g)}…`); this.link.post({ type: 'revoke', id: g.id }); } }, 'Revoke'))));
    put(this.sections.grants,
      h('h2', { id: 'tg-grants-title' }, this.words('grants', 'heading')),
      h('p', { class: 'tg-hint' }, this.words('grants', 'help')),
      ...problems.map((p) => renderProblem(p, {})),
      grants.length
        ? h('table', { class: 'tg-table tg-activity-table', id: 'tg-grants-table' },
          h('thead', {}, h('tr', {}, ['Allowed', 'Tool', 'For how long', h('span', { class: 'tg-sr-only' }, 'Revoke')].map((t) => h('th', { scope: 'col' }, t)))),
          h('tbody', {}, rows))
        : h('p', { class: 'tg-hint', id: 'tg-grants-none' }, 'Nothing allowed beyond your rules.'));
  }

  /** Adds a proposal's rule to the user's rules in the draft (saved with the rest). */
  addProposal(p) {
    if (p.rule.pattern !== undefined) {
      const tools = (this.draft.rules.user.tools ??= {});
      const rules = (tools[p.tool] ??= {});
      rules.alwaysAllow = [...(rules.alwaysAllow ?? []), { pattern: p.rule.pattern }];
    } else if (p.rule.mcp !== undefined) {
      this.draft.mcp.mcpAllowedTools = [...this.draft.mcp.mcpAllowedTools, p.rule.mcp];
    }
    this.changed({ structural: true, now: true });
    this.renderProposals();
    this.setStatus(`Added ${visible(p.display)} to your rules: save to keep it.`);
  }

  /** Whether the draft already has a proposal's rule. */
  hasProposal(p) {
    if (p.rule.pattern !== undefined) return (this.draft?.rules.user.tools?.[p.tool]?.alwaysAllow ?? []).some((r) => r.pattern === p.rule.pattern);
    if (p.rule.mcp !== undefined) return (this.draft?.mcp.mcpAllowedTools ?? []).includes(p.rule.mcp);
    return true;
  }

  renderProposals() {
    const proposals = this.activity.proposals.filter((p) => p.rule.pattern !== undefined || p.rule.mcp !== undefined);
    const items = proposals.map((p, i) => {
      const added = this.hasProposal(p);
      return h('li', { class: 'tg-proposal' },
        h('p', {}, 'You approved ', code(p.display, { written: true }), ` (${this.toolLabel(p.tool)}) ${p.covers.length} time${p.covers.length === 1 ? '' : 's'}: a rule would have saved ${p.saves} prompt${p.saves === 1 ? '' : 's'}.`),
        h('p', { class: 'tg-hint' }, 'Rule: ', code(p.rule.pattern ?? p.rule.mcp), hiddenMark(p.display, p.rule.pattern ?? p.rule.mcp)),
        h('button', { type: 'button', id: `tg-proposal-${i}`, class: 'tg-secondary', disabled: added || !this.draft,
          'aria-label': added ? `In your rules: ${visible(p.display)}` : `Add to your rules: ${visible(p.display)}`, onclick: () => this.addProposal(p) }, added ? 'In your rules' : 'Add to your rules'));
    });
    put(this.sections.proposals,
      h('h2', { id: 'tg-proposals-title' }, this.words('proposals', 'heading')),
      h('p', { class: 'tg-hint' }, this.words('proposals', 'help')),
      items.length ? h('ul', { class: 'tg-proposals', id: 'tg-proposals-list' }, items) : h('p', { class: 'tg-hint' }, 'No suggestion yet: they come from calls you approved more than once.'));
  }

  renderLog() {
    const { log } = this.activity;
    const answers = new Map(log.filter((r) => r.event === 'answer').map((r) => [`${r.session}:${r.callId}`, r]));
    const decisions = log.filter((r) => r.event === 'decision').reverse();
    const tools = [...new Set(decisions.map((r) => r.tool))].sort();
    const { outcome, tool } = this.logFilter;
    const shown = decisions.filter((r) => (!outcome || r.outcome === outcome) && (!tool || r.tool === tool));
    const happened = (r) => {
      if (r.outcome !== 'confirm') return OUTCOME_TEXT[r.outcome];
      const a = answers.get(`${r.session}:${r.callId}`);
      if (!a) return 'Asked; not answered';
      const who = a.by === 'reviewer' ? 'the reviewer' : 'you';
      return a.outcome === 'allow' ? `Asked; ${who} allowed it${a.scope && a.scope !== 'once' ? ` (${ANSWER_SCOPE_TEXT[a.scope] ?? a.scope})` : ''}` : `Asked; ${who} refused it`;
    };
    const filter = (id, label, value, options, key) => h('div', { class: 'tg-field' }, h('label', { for: id }, label),
      h('select', { id, onchange: (e) => { this.logFilter[key] = e.target.value; this.renderLog(); document.getElementById(id)?.focus(); } },
        options.map(([v, text]) => h('option', { value: v, selected: value === v }, text))));
    put(this.sections.log,
      h('h2', { id: 'tg-log-title' }, this.words('log', 'heading')),
      h('p', { class: 'tg-hint' }, this.words('log', 'help')),
      h('div', { class: 'tg-toolbar' },
        filter('tg-log-outcome', 'Outcome', outcome, [['', 'All'], ['allow', OUTCOME_TEXT.allow], ['confirm', OUTCOME_TEXT.confirm], ['deny', OUTCOME_TEXT.deny]], 'outcome'),
        filter('tg-log-tool', 'Tool', tool, [['', 'All'], ...tools.map((t) => [t, this.toolLabel(t)])], 'tool')),
      shown.length
        ? h('table', { class: 'tg-table tg-activity-table', id: 'tg-log-table' },
          h('thead', {}, h('tr', {}, ['Tool', 'Call', 'What happened'].map((t) => h('th', { scope: 'col' }, t)))),
          h('tbody', {}, shown.map((r) => h('tr', { 'data-outcome': r.outcome },
            h('td', {}, this.toolLabel(r.tool)), h('td', {}, code((r.inputs ?? []).join(' ')), hiddenMark(r.inputs ?? [])), h('td', {}, happened(r))))))
        : h('p', { class: 'tg-hint' }, decisions.length ? 'No decision matches these filters.' : 'No decision yet.'));
  }
}
