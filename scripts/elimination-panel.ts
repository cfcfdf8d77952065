/**
 * The blind elimination panel for the question banks (decision 0034).
 *
 *   npm run panel -- sample <seed> <folder>   writes <folder>/items.json: 40 random items per full
 *                                             course, with no keys, explanations or lesson names
 *   npm run panel -- score <folder>           reads <folder>/items.json and every
 *                                             <folder>/reader-*.json, and prints each reader's
 *                                             expected score per course, and the panel's
 *
 * A reader's sheet maps each item's key to the options the reader could not rule out using only
 * surface cues (absurd, unsafe or unethical on its face, absolute next to a milder option, at odds
 * with the stem). The expected score of an item is 1 / (options left) when the correct option is
 * among them, else 0.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadContent } from "#server/content/content-files.ts";

const PER_COURSE = 40;

interface PanelItem {
  key: string;
  course: string;
  question: string;
  options: { id: string; text: string }[];
}

/** A small seeded generator (mulberry32), so a sample can be drawn again. */
function random(seed: number) {
  let t = seed >>> 0;
  return () => {
    t += 0x6d2b79f5;
    let r = Math.imul(t ^ (t >>> 15), 1 | t);
    r ^= r + Math.imul(r ^ (r >>> 7), 61 | r);
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
}

function allItems() {
  const items: (PanelItem & { correct: string })[] = [];
  for (const course of loadContent().courses) {
    const banks = [
      ...course.modules.flatMap((m) => (m.quiz ? [{ name: m.id, quiz: m.quiz }] : [])),
      ...(course.exam ? [{ name: "exam", quiz: course.exam }] : []),
    ];
    for (const bank of banks)
      for (const q of bank.quiz.questions)
        items.push({
          key: `${course.id}/${bank.name}/${q.id}`,
          course: course.id,
          question: q.question,
          options: q.options.map((o) => ({ id: o.id, text: o.text })),
          correct: q.correctAnswer,
        });
  }
  return items;
}

function sample(seed: number, folder: string) {
  const next = random(seed);
  const byCourse = new Map<string, ReturnType<typeof allItems>>();
  for (const item of allItems()) byCourse.set(item.course, [...(byCourse.get(item.course) ?? []), item]);
  const chosen: PanelItem[] = [];
  for (const items of byCourse.values()) {
    const pool = [...items];
    for (let i = 0; i < PER_COURSE && pool.length > 0; i++) {
      const { correct: _key, ...item } = pool.splice(Math.floor(next() * pool.length), 1)[0]!;
      chosen.push(item);
    }
  }
  // Shuffle across courses too, so a reader meets no course as a block.
  for (let i = chosen.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [chosen[i], chosen[j]] = [chosen[j]!, chosen[i]!];
  }
  writeFileSync(join(folder, "items.json"), `${JSON.stringify({ seed, items: chosen }, null, 2)}\n`);
  console.log(`${chosen.length} items from ${byCourse.size} courses written to ${join(folder, "items.json")}`);
}

function score(folder: string) {
  const { items } = JSON.parse(readFileSync(join(folder, "items.json"), "utf8")) as { items: PanelItem[] };
  const keys = new Map(allItems().map((i) => [i.key, i.correct]));
  const readers = readdirSync(folder).filter((f) => /^reader-.+\.json$/.test(f));
  const courses = [...new Set(items.map((i) => i.course))];
  const pct = (x: number) => `${(100 * x).toFixed(0)}%`;
  const panel = new Map(courses.map((c) => [c, [] as number[]]));
  for (const file of readers) {
    const sheet = JSON.parse(readFileSync(join(folder, file), "utf8")) as Record<string, string[]>;
    const line: string[] = [];
    for (const course of courses) {
      const mine = items.filter((i) => i.course === course);
      let total = 0;
      let single = 0;
      for (const item of mine) {
        const left = sheet[item.key];
        if (!left || left.length === 0) throw new Error(`${file} has no answer for ${item.key}`);
        if (left.length === 1) single++;
        if (left.includes(keys.get(item.key)!)) total += 1 / left.length;
      }
      const expected = total / mine.length;
      panel.get(course)!.push(expected);
      line.push(`${course} ${pct(expected)} (${single} of ${mine.length} cut to one option)`);
    }
    console.log(`${file}: ${line.join("; ")}`);
  }
  for (const [course, scores] of panel)
    console.log(`panel mean ${course}: ${pct(scores.reduce((a, b) => a + b, 0) / Math.max(scores.length, 1))}`);
}

const [command, ...rest] = process.argv.slice(2);
if (command === "sample" && rest.length === 2) sample(Number(rest[0]), rest[1]!);
else if (command === "score" && rest.length === 1) score(rest[0]!);
else {
  console.error("usage: npm run panel -- sample <seed> <folder> | score <folder>");
  process.exit(2);
}
