/**
 * The final exam's blueprint rule (docs/decisions/0026): it names every module of the course once,
 * its counts add up to the draw, and each module's share of the bank holds at least the items the
 * blueprint takes from it, so every draw can follow it. One definition for the import's check and
 * the studio's live check.
 */
export interface BlueprintInput {
  blueprint: Record<string, number>;
  draw: number;
  modules: { id: string; lessonIds: string[] }[];
  questions: { lesson?: string | undefined }[];
}

export interface BlueprintModule {
  id: string;
  wanted: number;
  /** The bank's questions testing a lesson of this module. */
  pool: number;
}

export function blueprintModules(input: BlueprintInput): BlueprintModule[] {
  const moduleOf = new Map(input.modules.flatMap((m) => m.lessonIds.map((l) => [l, m.id] as const)));
  return input.modules.map((m) => ({
    id: m.id,
    wanted: input.blueprint[m.id] ?? 0,
    pool: input.questions.filter((q) => q.lesson !== undefined && moduleOf.get(q.lesson) === m.id).length,
  }));
}

/** Every way the blueprint fails, in the import's words (file-relative: "blueprint: ..."). */
export function blueprintProblems(input: BlueprintInput): string[] {
  const problems: string[] = [];
  const moduleIds = input.modules.map((m) => m.id);
  for (const id of Object.keys(input.blueprint))
    if (!moduleIds.includes(id)) problems.push(`blueprint: '${id}' is not a module of this course`);
  for (const id of moduleIds)
    if (input.blueprint[id] === undefined)
      problems.push(`blueprint: module '${id}' is missing (every module is in every exam)`);
  const total = Object.values(input.blueprint).reduce((sum, n) => sum + n, 0);
  if (total !== input.draw)
    problems.push(`blueprint: the modules' items add up to ${total}, but each exam draws ${input.draw}`);
  input.questions.forEach((q, i) => {
    if (q.lesson === undefined)
      problems.push(`questions.${i}.lesson: an exam question names its lesson (the blueprint needs its module)`);
  });
  for (const m of blueprintModules(input))
    if (m.pool < m.wanted)
      problems.push(
        `blueprint: module '${m.id}' has ${m.pool} questions in the bank, fewer than the ${m.wanted} each exam draws`,
      );
  return problems;
}
