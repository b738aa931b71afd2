// The same job for the peer: load web-tree-sitter and tree-sitter-bash, compile the two rules,
// decide one line (bench/tree-sitter-peer.mjs).
const start = performance.now();
const { loadPeer } = await import('../tree-sitter-peer.mjs');
const peer = await loadPeer();
const loaded = performance.now();
const decide = peer.decider({ alwaysAllow: [{ pattern: '^git\\s+status\\b' }], alwaysDeny: [{ pattern: '\\brm\\s+-rf\\b' }] });
const built = performance.now();
const outcome = decide('git status && ls');
const decided = performance.now();
process.stdout.write(JSON.stringify({ load: loaded - start, build: built - loaded, decide: decided - built, total: decided - start, outcome }));
