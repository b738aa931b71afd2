// The floor under a first decision: read a .wasm and compile it (V8 validates the whole module and
// compiles each function on its first call), nothing else.
'use strict';
const start = performance.now();
const bytes = require('fs').readFileSync(process.argv[2]);
const read = performance.now();
new WebAssembly.Module(bytes);
const compiled = performance.now();
process.stdout.write(JSON.stringify({ read: read - start, compile: compiled - read, total: compiled - start }));
