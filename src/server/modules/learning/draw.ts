import { randomInt } from "node:crypto";
import type { QuizQuestion } from "../courses/course-catalogue.ts";

/** One drawn question: its id and its option ids in the order the learner sees them. */
export interface DrawnQuestion {
  id: string;
  options: string[];
}

function shuffle<T>(items: T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/**
 * Draws `count` questions, the least seen first (so every question of the bank is seen before any
 * repeats), in a random order and with their options shuffled.
 */
export function drawQuestions(bank: QuizQuestion[], count: number, timesSeen: Map<string, number>): DrawnQuestion[] {
  const bySeen = shuffle(bank).sort((a, b) => (timesSeen.get(a.id) ?? 0) - (timesSeen.get(b.id) ?? 0));
  return shuffle(bySeen.slice(0, count)).map((q) => ({ id: q.id, options: shuffle(q.options.map((o) => o.id)) }));
}
