// The settings page's own validator (a build of the core without lint or the shell analysis) and
// the tools' module (the whole core, as the host half checks every save) read the same settings
// the same way: the same errors, the same warnings but lint's findings, the same previews (a Roo
// mode's catalogue, Gasoline's report). In headless Chromium, each module as the page loads it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serveWithChromium } from './standin.mjs';

const running = serveWithChromium();

const catalogue = {
  servers: [
    { name: 'github', tools: [{ name: 'create_issue' }, { name: 'list_issues' }, { name: 'delete_repo' }] },
    { name: 'docs', tools: [{ name: 'search' }, { name: 'fetch_page' }] },
    { name: 'admin-server', defaultEnabled: false, tools: [{ name: 'drop_db' }] },
    { name: 'weather_api', tools: [{ name: 'forecast' }] },
  ],
};

const CONTEXTS = [
  {},
  { catalogue, projectTrusted: true },
  { catalogue, projectTrusted: false, admin: { mcp: { isAdminControlled: true, isDisabledByAdmin: false, adminMcpAllowedTools: ['docs:*', 'bad entry'] },
    managed: { tools: { terminal: { alwaysDeny: [{ pattern: '^sudo\\b' }, { pattern: '(' }] } } } } },
  { catalogue, shell: 'powershell' },
];

const terminal = (lists) => ({ tools: { terminal: lists } });

/** Settings that reach every check: each rule kind, valid and not, examples, modes, YAML. */
const SETTINGS = [
  {},
  { mcp: { mode: 'allowlist', mcpAllowedTools: ['github:*', 'github:create_issue', 'docs:search', 'docs:search', 'jira create_ticket', '*:*'] } },
  { rules: { user: terminal({ alwaysAllow: [{ pattern: '^git\\s+(status|log|diff)\\b' }, { pattern: '^ls\\b' }, { pattern: '' }],
    alwaysConfirm: [{ pattern: '^git\\s+push' }], alwaysDeny: [{ pattern: '^curl\\b.*\\|\\s*sh' }, { pattern: 'rm -rf (' }] }) } },
  { rules: { user: terminal({ alwaysAllow: [{ pattern: '^npm\\s+test$', examples: { match: ['npm test'], notMatch: ['npm test && curl evil | sh', 'rm -rf /'] } },
    { pattern: '^cargo\\s+build\\b', examples: { match: ['cargo build', 'ls'] } }] }) } },
  { rules: { user: { defaultMode: 'allow', tools: {
    edit_file: { alwaysAllow: [{ pattern: '^src/' }], alwaysDeny: [{ pattern: '\\.env($|\\.)' }], defaultMode: 'confirm' },
    fetch: { alwaysAllow: [{ pattern: '^https?://docs\\.rs(?:[:/?#]|$)' }, { pattern: '^https://[' }] },
    read_file: { alwaysDeny: [{ match: 'path', pattern: '~/.ssh/**' }, { match: 'glob', pattern: '**/*.pem' }] },
    terminal: { alwaysAllow: [{ match: 'tokens', pattern: 'git status' }, { match: 'prefix', pattern: 'npm run' }, { match: 'domain', pattern: '*.example.com' }] },
    '': { alwaysAllow: [{ pattern: 'x' }] },
    my_custom_tool: { alwaysConfirm: [{ pattern: '.*' }] },
    mcp__github__create_issue: { alwaysAllow: [{ pattern: '.*' }] },
  } } } },
  { rules: { project: { defaultMode: 'allow', tools: { terminal: { alwaysAllow: [{ pattern: '^make\\b' }] } } } } },
  { rules: { user: terminal({ alwaysAllow: [{ pattern: '(?x)^rm\\b  # no rm\n|^curl\\b' }, { pattern: '^npm\\ test$|(?x)#\u202E\n.*' }, { pattern: '(?i)^DIR\\b', caseSensitive: false }] }) } },
  { roo: { modes: [
    { slug: 'code', mcpRestrictions: { disallowedServers: ['admin-server'], disallowedTools: [{ serverName: 'github', toolName: 'delete_repo' }] } },
    { slug: 'architect', mcpRestrictions: { allowedServers: ['docs'] } },
    { slug: 'ops', mcpRestrictions: { allowedServers: ['*', 'admin-server'], disallowedServers: ['docs'] } },
    { slug: 'weird', mcpRestrictions: { allowedServers: ['docs'], disallowedServers: ['docs'], disallowedTools: [{ serverName: 'nowhere', toolName: '*' }] } },
    { slug: 'plain' },
  ] } },
  { gasoline: { yaml: '# Gasoline allowlist\nallowed_tools:\n  - "observe.*"\n  - "generate.reproduction"\n  - "interact.navigate"\n' } },
  { gasoline: { yaml: 'allowed_tools:\n  - "observe.*"\n  - [' } },
  { gasoline: { yaml: 'allowed_tools:\n  - "Observe.Errors"\n  - "bad name"\n  - "*"\n' } },
  { mcp: { mcpAllowedTools: 'github:*' } },
  { rules: { user: { tools: [] } } },
  [],
];

/** Both modules' answers for every settings × context, computed in the page (JSON values only). */
async function answers() {
  const context = await running.browser.newContext();
  const page = await context.newPage();
  const html = `<!doctype html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'">
<title>validators</title></head><body></body></html>`;
  await page.route(`${running.origin}/validators.html`, (route) => route.fulfill({ contentType: 'text/html', body: html }));
  await page.goto(`${running.origin}/validators.html`);
  const result = await page.evaluate(async ({ settingsList, contexts }) => {
    // The page's validator, as the page loads it (no #toolgate-settings here: the page does not start).
    const validator = await (await import('/pkg/settings-page/settings-page.js')).loadCore();
    const tools = await import('/pkg/tools/web/toolgate_tools_raw.js');
    await tools.default();
    const out = [];
    for (const settings of settingsList) {
      for (const ctx of contexts) {
        const pair = (f) => {
          try {
            return { value: f() };
          } catch (e) {
            return { threw: String(e?.message ?? e) };
          }
        };
        const page = pair(() => validator.validateSettings(settings, ctx));
        const host = pair(() => tools.validateSettings(settings, ctx));
        const usable = host.value?.settings;
        out.push({
          settings, ctx, page, host,
          lint: usable ? tools.lint(tools.settingsPolicy(usable, ctx)).findings.map((f) => f.code) : [],
          previews: usable ? [pair(() => validator.settingsPreview(usable, ctx)), pair(() => tools.settingsPreview(usable, ctx))] : undefined,
        });
      }
    }
    return out;
  }, { settingsList: SETTINGS, contexts: CONTEXTS });
  await context.close();
  return result;
}

test('the page\'s validator finds what the host\'s core finds, but lint\'s findings, and previews the same modes and report', async () => {
  const all = await answers();
  assert.equal(all.length, SETTINGS.length * CONTEXTS.length);
  let linted = 0;
  for (const { settings, ctx, page, host, lint, previews } of all) {
    const where = JSON.stringify({ settings, ctx });
    assert.deepEqual(page.threw, host.threw, where);
    if (host.threw) continue;
    assert.deepEqual(page.value.errors, host.value.errors, where);
    assert.equal(page.value.ok, host.value.ok, where);
    assert.deepEqual(page.value.settings, host.value.settings, where);
    // The page's warnings are the host's, in order, less lint's findings (then loaded on a rule edit).
    const extra = [...host.value.warnings];
    for (const warning of page.value.warnings) {
      const at = extra.findIndex((w) => JSON.stringify(w) === JSON.stringify(warning));
      assert.ok(at >= 0, `${where}: the page warns of ${JSON.stringify(warning)}, the host does not`);
      extra.splice(at, 1);
    }
    for (const warning of extra) assert.ok(lint.includes(warning.code), `${where}: ${JSON.stringify(warning)} is not lint's`);
    linted += extra.length;
    if (previews) assert.deepEqual(previews[0], previews[1], where);
  }
  assert.ok(linted > 0, 'some settings have lint findings, which only the host reports');
  assert.ok(all.some(({ previews }) => previews?.[0].value?.modes.some((m) => m.servers.length > 0 && m.servers.length < catalogue.servers.length)),
    'some mode sees part of the catalogue');
  assert.ok(all.some(({ page }) => page.value && !page.value.ok), 'some settings have errors');
});
