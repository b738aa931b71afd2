// The workloads the bench times, shared by bench/run.mjs and bench/ab.mjs.

/** A realistic list: mostly exact entries, some server wildcards, a few tool wildcards. */
export function makeList(n) {
  const list = [];
  for (let i = 0; i < n; i++) {
    if (i % 10 === 3) list.push(`server${i}:*`);
    else if (i % 25 === 7) list.push(`*:shared_tool${i}`);
    else list.push(`server${i}:tool_${i}`);
  }
  return list;
}

/** 64 calls: half allowed by entries spread over the list, half allowed by none (a full scan for the loop). */
export function makeCalls(list) {
  const calls = [];
  for (let k = 0; k < 32; k++) {
    const [server, tool] = list[Math.floor((k + 0.5) * list.length / 32) % list.length].split(':');
    calls.push([server === '*' ? `any${k}` : server, tool === '*' ? `some_tool${k}` : tool]);
    calls.push([`unknown${k}`, `missing_tool${k}`]);
  }
  return calls;
}

/** N rules as users accumulate them (mostly via "Always allow `cmd`"), plus Zed-style unanchored denies. */
export function makeRules(n) {
  const spec = { alwaysAllow: [], alwaysConfirm: [], alwaysDeny: [] };
  for (let i = 0; i < n; i++) {
    if (i % 3 === 0) spec.alwaysAllow.push({ pattern: `^cmd${i}\\b` });
    else if (i % 3 === 1) spec.alwaysConfirm.push({ pattern: `^cmd${i}\\s+(push|publish)\\b` });
    else spec.alwaysDeny.push({ pattern: `^cmd${i}\\s+(nuke|wipe)\\b` });
  }
  spec.alwaysDeny.push(...['mkfs\\.', '/etc/shadow', '> /dev/sd', 'dd\\s+if=/dev/'].map((pattern) => ({ pattern })));
  return spec;
}

export function makeCommands(n) {
  const pick = (k) => `cmd${(k * 7919) % n}`;
  const commands = [];
  for (let k = 0; k < 32; k++) {
    const shapes = [
      `${pick(k)} build --release`,
      `${pick(k)} status && ${pick(k + 1)} log --oneline -n 5`,
      `${pick(k)} test | ${pick(k + 2)} -c 'a; b' > /dev/null`,
      `unknown${k} --flag value`,
    ];
    commands.push(shapes[k % shapes.length]);
  }
  return commands;
}

export function policySpec(rules) {
  return { layers: [{ name: 'user', tools: { terminal: rules } }] };
}
