// A fresh process's first decision with `toolgate/engine`: load, build a two-rule policy, decide one
// line. Prints the phases in ms from this script's first line (Node's own start-up is left out).
'use strict';
const start = performance.now();
const { Policy } = require(process.argv[2]);
const loaded = performance.now();
const policy = new Policy({ layers: [{ name: 'user', kind: 'user', tools: { terminal: {
  alwaysAllow: [{ pattern: '^git\\s+status\\b' }], alwaysDeny: [{ pattern: '\\brm\\s+-rf\\b' }] } } }] });
const built = performance.now();
const outcome = policy.decide('terminal', 'git status && ls').outcome;
const decided = performance.now();
process.stdout.write(JSON.stringify({ load: loaded - start, build: built - loaded, decide: decided - built, total: decided - start, outcome }));
