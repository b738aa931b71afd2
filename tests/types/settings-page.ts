// The settings page's declarations under tsc --strict: the host half, the protocol, the page module,
// and the settings functions of `toolgate/tools` they share.
import { createSettingsHost, settingsPageHtml, type CompleteSettings, type SettingsHost, type WebviewLike } from 'toolgate/settings-page/host';
import type { HostMessage, WebviewMessage, LoadMessage, PageSettings, PageContext } from 'toolgate/settings-page/protocol';
import { startSettingsPage } from 'toolgate/settings-page';
import { Policy, Session, settingsPolicy, validateSettings, applySettingsChange, type SettingsValidation } from 'toolgate/tools';
import { SECTIONS, type PageOptions, type SectionName } from 'toolgate/settings-page/host';
const everySection: readonly SectionName[] = SECTIONS;

declare const webview: WebviewLike;
const settings: PageSettings = {
  mcp: { mode: 'yolo', mcpAllowedTools: ['github:*'], mcpToolsProtection: true, playwrightProtection: true },
  rules: { user: { tools: { terminal: { alwaysAllow: [{ pattern: '^ls\\b' }] } } }, project: { tools: {} } },
  roo: { modes: [{ slug: 'code', mcpRestrictions: { allowedServers: ['docs'] } }] },
  gasoline: { yaml: 'allowed_tools:\n  - "*"\n' },
};
const context: PageContext = { catalogue: { servers: [{ name: 'docs', defaultEnabled: false, tools: [{ name: 'search' }] }] }, admin: { mcp: { isAdminControlled: true, isDisabledByAdmin: false, adminMcpAllowedTools: [] } }, projectTrusted: false };

const host: SettingsHost = createSettingsHost({
  webview,
  load: async () => settings,
  persist: async (s: CompleteSettings) => { void s.mcp.mcpAllowedTools.length; void s.rules.user.tools; },
  context: () => context,
  log: (message, level) => { void message; void level; },
});
const inForce: string[] | undefined = host.settings?.mcp.mcpAllowedTools;
const html: string = settingsPageHtml({ cspSource: 'https://x', scriptUri: 'https://x/settings-page.js', styleUri: { toString: () => 'https://x/settings-page.css' } });

const validation: SettingsValidation = validateSettings({ anything: true }, context);
const firstColumn: number | undefined = validation.errors[0]?.column;
const policy = new Policy(settingsPolicy(settings, context));
const changed = applySettingsChange(settings, { layer: 'user', tool: 'terminal', key: 'defaultMode', mode: 'allow' });
const changedSettings: PageSettings | undefined = changed.ok ? changed.settings : undefined;

function onMessage(message: HostMessage): string {
  switch (message.type) {
    case 'load': return (message satisfies LoadMessage).context.catalogue?.servers?.[0]?.name ?? '';
    case 'saved': return String(message.id);
    case 'rejected': return message.errors.map((e) => e.path ?? '').join();
    case 'activity': return message.grants.map((g) => g.display).concat(message.proposals.map((p) => p.display)).join();
  }
}

// An embedder's own page, with the agent's session.
const minimal: PageOptions = { sections: ['rules', 'try'], agentName: 'Acme', tools: [{ name: 'terminal', label: 'Run a command' }], words: { rules: { heading: 'Commands' } } };
// @ts-expect-error a section the page does not have
const noSuchSection: PageOptions = { sections: ['history'] };
const session = new Session(settingsPolicy(settings, context));
const withSession: SettingsHost = createSettingsHost({
  webview, load: () => settings, persist: () => {}, page: minimal,
  activity: { session: () => session, now: () => 0, onRevoke: async (persist) => { void persist; } },
});
const refreshed: Promise<void> = withSession.refreshActivity();
const ready: WebviewMessage = { type: 'ready', protocol: 1 };
// @ts-expect-error a save carries settings
const bad: WebviewMessage = { type: 'save', id: 1 };
// @ts-expect-error the auto-run mode is one of three
const badMode: PageSettings = { mcp: { mode: 'sometimes', mcpAllowedTools: [], mcpToolsProtection: true, playwrightProtection: true } };

async function page(): Promise<unknown> {
  return startSettingsPage(document.getElementById('toolgate-settings'), { storageKey: 'x' });
}

export { inForce, html, firstColumn, policy, changedSettings, onMessage, ready, bad, badMode, page, noSuchSection, refreshed, everySection };
