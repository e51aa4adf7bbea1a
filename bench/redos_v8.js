// Label regular expressions by timing attack strings in V8 (Node's irregexp, a backtracking
// engine with JavaScript semantics). Input on stdin: a JSON list of {pattern, ...}; output on
// stdout: the same entries with label, attack and timing. Used by bench/redos_corpus.py.
//
// Attack strings: those the entry proposes (``attacks``: [{from, pumps: [[prefix, pump]...], suffix}]),
// recheck's (npm "recheck", when NODE_PATH finds it), plus generic ones that
// pump each character the pattern names, and a few common ones, before a suffix that fails.
// Each match runs in a worker thread that is terminated past LIMIT_MS of CPU time, so one
// slow pattern never stalls the run; times are CPU times (the load of a shared machine does
// not make a pattern look slow). Label: vulnerable when one RegExp.prototype.test call takes at least
// SLOW_MS on an input of at most MAX_LEN characters; exponential when that happens with at
// most EXPO_PUMPS repetitions of the pump (time that explodes in a few dozen characters),
// polynomial otherwise (degree estimated from the time ratio of two sizes).
"use strict";
const { Worker } = require("worker_threads");

const SLOW_MS = 1000;
const LIMIT_MS = 1200;
const MAX_LEN = 100000;
const EXPO_PUMPS = 40;

// recheck runs in a child process (its agent can crash or hang on some patterns): one
// process answers pattern after pattern, and is replaced when it does not answer in time
const { spawn } = require("child_process");
let haveRecheck = false;
try { require.resolve("recheck"); haveRecheck = true; } catch (e) { haveRecheck = false; }
const RECHECK = `
const { checkSync } = require("recheck");
const rl = require("readline").createInterface({ input: process.stdin });
rl.on("line", (line) => {
  let out;
  try {
    const d = checkSync(JSON.parse(line), "", { timeout: 5000 });
    out = { status: d.status, complexity: d.complexity, attack: d.attack };
  } catch (e) { out = null; }
  process.stdout.write(JSON.stringify(out) + "\\n");
});
`;
let child = null;
let pending = null;
let buffer = "";

function startChild() {
  child = spawn(process.execPath, ["-e", RECHECK], { stdio: ["pipe", "pipe", "ignore"], env: process.env });
  buffer = "";
  child.stdout.on("data", (d) => {
    buffer += d;
    const nl = buffer.indexOf("\n");
    if (nl >= 0 && pending) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      const p = pending; pending = null;
      try { p(JSON.parse(line)); } catch (e) { p(null); }
    }
  });
}

function recheckOne(pattern) {
  return new Promise((resolve) => {
    if (!child) startChild();
    const timer = setTimeout(() => { pending = null; child.kill("SIGKILL"); child = null; resolve(null); }, 15000);
    pending = (v) => { clearTimeout(timer); resolve(v); };
    child.stdin.write(JSON.stringify(pattern) + "\n");
  });
}

const WORKER = `
const { parentPort, workerData } = require("worker_threads");
const re = new RegExp(workerData.pattern);
// for each attack, time its inputs in order; after a slow one, go to the next attack
(function () {
for (let k = workerData.start; k < workerData.attacks.length; k++) {
  const inputs = workerData.attacks[k];
  for (let i = 0; i < inputs.length; i++) {
    parentPort.postMessage({ k, i, start: true });
    const t = process.cpuUsage();
    re.test(inputs[i]);
    const u = process.cpuUsage(t);
    const ms = (u.user + u.system) / 1000;
    parentPort.postMessage({ k, i, ms });
    if (ms >= workerData.slow) { if (workerData.stopAll) { parentPort.postMessage({ done: true }); return; } break; }
  }
}
parentPort.postMessage({ done: true });
})();
`;

function runWorker(pattern, attacks, start, stopAll) {
  // resolves to {times: [[k, i, ms]...], cut: [k, i] | null}
  return new Promise((resolve) => {
    const times = [];
    let current = null;
    let cut = null;
    const w = new Worker(WORKER, { eval: true, workerData: { pattern, attacks, start, slow: SLOW_MS, stopAll } });
    let timer = null;
    w.on("message", (m) => {
      if (m.done) { clearTimeout(timer); w.terminate(); return; }
      if (m.start) {
        current = [m.k, m.i];
        clearTimeout(timer);
        // CPU time, not wall time: this process runs one match at a time, so its CPU use is
        // the match's; on a loaded machine the wall clock would overstate it
        const cpu0 = process.cpuUsage();
        const wall0 = Date.now();
        const check = () => {
          const u = process.cpuUsage(cpu0);
          if ((u.user + u.system) / 1000 >= LIMIT_MS || Date.now() - wall0 > 20 * LIMIT_MS) { cut = current; w.terminate(); }
          else timer = setTimeout(check, 100);
        };
        timer = setTimeout(check, LIMIT_MS);
      } else { clearTimeout(timer); times.push([m.k, m.i, m.ms]); }
    });
    w.on("error", () => { clearTimeout(timer); resolve({ times, cut }); });
    w.on("exit", () => { clearTimeout(timer); resolve({ times, cut }); });
  });
}

async function timeAll(pattern, attacks, stopAll = false) {
  // times[k][i] for every attack k and size i measured (LIMIT_MS when cut)
  const times = attacks.map(() => []);
  let start = 0;
  while (start < attacks.length) {
    const r = await runWorker(pattern, attacks, start, stopAll);
    for (const [k, i, ms] of r.times) times[k][i] = ms;
    if (!r.cut || stopAll) {
      if (r.cut) times[r.cut[0]][r.cut[1]] = LIMIT_MS;
      break;
    }
    times[r.cut[0]][r.cut[1]] = LIMIT_MS;
    start = r.cut[0] + 1;
  }
  return times;
}

function literalChars(pattern) {
  const out = new Set();
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") {
      const d = pattern[i + 1] || "";
      const map = { d: "0", w: "a", s: " ", D: "!", W: "!", S: "a", n: "\n", t: "\t", r: "\r", b: "", B: "" };
      if (d in map) { if (map[d]) out.add(map[d]); } else if (/[^\w]/.test(d)) out.add(d);
      i++;
    } else if (!"()[]{}|*+?^$".includes(c)) {
      out.add(c === "." ? "a" : c);
    }
  }
  for (const c of ["a", "0", " ", "\t", "-", "."]) out.add(c);
  return [...out];
}

async function attacks(pattern, proposed) {
  // attacks proposed with the entry (another tool's, an analyser's) are tried first
  const list = (proposed || []).map((a) => ({ from: a.from, pumps: a.pumps, suffix: a.suffix || "" }));
  let recheckSays = null;
  if (haveRecheck) {
    try {
      const d = await recheckOne(pattern);
      if (!d) throw new Error("recheck failed");
      recheckSays = d.status === "vulnerable" ? d.complexity.type + (d.complexity.degree ? ":" + d.complexity.degree : "")
        : d.status;
      if (d.status === "vulnerable" && d.attack && d.attack.pumps) {
        // recheck's attack: prefix1 pump1^n prefix2 pump2^n ... suffix
        list.push({ from: "recheck", pumps: d.attack.pumps.map((p) => [p.prefix, p.pump]), suffix: d.attack.suffix || "" });
      }
    } catch (e) { recheckSays = "error"; }
  }
  // REDOS_GENERIC_CHARS=N: pump only the first N characters the pattern names (a cheaper run)
  const chars = literalChars(pattern);
  const n = +(process.env.REDOS_GENERIC_CHARS || 0);
  for (const c of n ? [...new Set([...chars.slice(0, n), "a", "0", " ", "\t", "-", "."])] : chars) {
    for (const suffix of ["!", "\n"]) {
      list.push({ from: "generic", pumps: [["", c]], suffix });
    }
  }
  for (const [pre, pump] of [["", "a."], ["", "a "], ["", "a-"], ["", "0."], ["", "aa."], ["", "a@"], ["a", "=a"], ["", "ab"], ["", "a0"]]) {
    list.push({ from: "generic", pumps: [[pre, pump]], suffix: "!" });
  }
  return { list, recheckSays };
}

function build(a, n) {
  return a.pumps.map(([pre, pump]) => pre + pump.repeat(n)).join("") + a.suffix;
}

function pumpLen(a) {
  return a.pumps.reduce((s, [, p]) => s + p.length, 0) || 1;
}

const EXPO_NS = [8, 12, 16, 20, 24, 28, 32, 36, 40];
const POLY_LENS = [3000, 30000, MAX_LEN];

function polySizes(a) {
  const per = pumpLen(a);
  return POLY_LENS.map((len) => Math.floor((len - a.suffix.length - a.pumps.reduce((s, [p]) => s + p.length, 0)) / per));
}

function firstSlow(ns, times) {
  for (let i = 0; i < times.length; i++) if (times[i] !== undefined && times[i] >= SLOW_MS) return i;
  return -1;
}

async function label(entry) {
  try { new RegExp(entry.pattern); } catch (e) { return { ...entry, label: "invalid", error: String(e.message) }; }
  const { list, recheckSays } = await attacks(entry.pattern, entry.attacks);
  const out = { ...entry, recheck: recheckSays };
  let worst = 0;
  const found = (a, n, ms, kind, degree) => {
    out.label = kind;
    if (degree) out.degree = degree;
    out.attack = { pumps: a.pumps, suffix: a.suffix, n, from: a.from };
    out.v8 = { ms: Math.round(ms), length: build(a, n).length, cut: ms >= LIMIT_MS };
    return out;
  };
  // phase 1: short inputs, every attack (exponential blow-up shows within a few dozen pumps)
  let times = await timeAll(entry.pattern, list.map((a) => EXPO_NS.map((n) => build(a, n))));
  for (let k = 0; k < list.length; k++) {
    const i = firstSlow(EXPO_NS, times[k]);
    if (i >= 0) return found(list[k], EXPO_NS[i], times[k][i], "exponential", null);
    worst = Math.max(worst, ...times[k].filter((t) => t !== undefined));
  }
  // phase 2: long inputs, attacks in order (recheck's first), until one is slow
  const nss = list.map(polySizes);
  const all = await timeAll(entry.pattern, list.map((a, k) => nss[k].map((n) => build(a, n))), true);
  for (let k = 0; k < list.length; k++) {
    const a = list[k];
    const ns = nss[k];
    times = all[k];
    const i = firstSlow(ns, times);
    if (i >= 0) {
      let degree = null;
      for (let j = i - 1; j >= 0; j--) {
        if (times[j] >= 5) { degree = Math.max(2, Math.round(Math.log(times[i] / times[j]) / Math.log(ns[i] / ns[j]))); break; }
      }
      return found(a, ns[i], times[i], "polynomial", degree);
    }
    worst = Math.max(worst, ...times.filter((t) => t !== undefined));
  }
  out.label = "safe";
  out.v8 = { worst_ms: Math.round(worst), attacks: list.length };
  return out;
}

async function main() {
  let input = "";
  for await (const chunk of process.stdin) input += chunk;
  const entries = JSON.parse(input);
  const out = [];
  let i = 0;
  for (const e of entries) {
    out.push(await label(e));
    if (++i % 25 === 0) process.stderr.write(`${i}/${entries.length}\n`);
  }
  process.stdout.write(JSON.stringify(out));
  if (child) child.kill();
}

main();
