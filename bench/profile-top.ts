/**
 * The top frames of a CPU profile written by `BENCH_PROFILE=1 npm run bench` (node --cpu-prof), by
 * self time, as shares of the busy (non-idle) time: `npx tsx bench/profile-top.ts [file] [count]`.
 * Without a file, the largest profile in bench/profiles. Shares, unlike rates, survive a busy machine.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { must } from "../tests/setup/must.ts";

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
const dir = "bench/profiles";
const file = must(
  process.argv[2] ??
    readdirSync(dir)
      .filter((f) => f.endsWith(".cpuprofile"))
      .map((f) => join(dir, f))
      .sort((a, b) => statSync(b).size - statSync(a).size)[0],
  `a .cpuprofile in ${dir}`,
);
const count = Number(process.argv[3] ?? 25);
const profile = JSON.parse(readFileSync(file, "utf8")) as {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
};
// Only the samples taken once the app listened (bench/server.ts notes when), when that is known.
const pid = file.match(/CPU\.\d+\.\d+\.(\d+)\./)?.[1];
const marker = join(dirname(file), `listening-${pid}.txt`);
const from = existsSync(marker) ? Number(readFileSync(marker, "utf8")) : 0;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<number, number>();
let at = profile.startTime;
profile.samples.forEach((id, i) => {
  at += profile.timeDeltas[i] ?? 0;
  if (at >= from) self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
});
const short = (url: string) =>
  url
    .replace(/^file:\/\//, "")
    .replace(/^.*node_modules\//, "")
    .replace(process.cwd(), ".");
const frames = new Map<string, number>();
let busy = 0;
for (const [id, us] of self) {
  const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
  if (functionName === "(idle)" || functionName === "(program)") continue;
  busy += us;
  const key = `${functionName || "(anonymous)"} ${short(url)}${url ? `:${lineNumber + 1}` : ""}`;
  frames.set(key, (frames.get(key) ?? 0) + us);
}
// By package: where the busy time goes (node_modules/<pkg>, node: internals, our source).
const packages = new Map<string, number>();
for (const [id, us] of self) {
  const { functionName, url } = byId.get(id)!.callFrame;
  if (functionName === "(idle)" || functionName === "(program)") continue;
  const [, packageName] = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/) ?? [];
  const pkg = packageName
    ? packageName
    : url.startsWith("node:")
      ? "node internals"
      : url
        ? short(url).split("/").slice(0, 4).join("/")
        : functionName;
  packages.set(pkg, (packages.get(pkg) ?? 0) + us);
}
const pct = (us: number) => `${((100 * us) / busy).toFixed(1)}%`.padStart(6);
console.log(
  `${file}: ${(busy / 1e6).toFixed(2)} s busy${from ? " after listening" : " (whole run)"}\n\nTop frames by self time:`,
);
for (const [k, us] of [...frames].sort((a, b) => b[1] - a[1]).slice(0, count)) console.log(`${pct(us)}  ${k}`);
console.log("\nBy package:");
for (const [k, us] of [...packages].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`${pct(us)}  ${k}`);
