import { describe, expect, it } from "vitest";
import type { CatalogueCourse, CatalogueLesson, CatalogueModule } from "#server/modules/courses/course-catalogue.ts";
import {
  canReadLesson,
  canTakeQuiz,
  computeCourseState,
  FINAL_EXAM_ID,
  type LearnerRecords,
  NO_RECORDS,
  notCompleteMessage,
} from "#server/modules/progress/learner-state.ts";

// A course like the fixture: alpha (2 lessons, quiz), beta (2 lessons, quiz), gamma (1 lesson, no quiz).
function course(withExam = false): CatalogueCourse {
  const lessons: CatalogueLesson[] = [];
  const modules: CatalogueModule[] = [
    ["alpha", 2, true],
    ["beta", 2, true],
    ["gamma", 1, false],
  ].map(([id, count, hasQuiz], position) => {
    const own = Array.from({ length: count as number }, (_, i) => ({
      id: `${id}-${i + 1}`,
      moduleId: id as string,
      position: lessons.length + i,
      numberInModule: i + 1,
      title: `${id} ${i + 1}`,
      duration: "5 min",
      html: "<p>text</p>",
    }));
    lessons.push(...own);
    return {
      id: id as string,
      position,
      title: id as string,
      description: "",
      lessons: own,
      quiz: hasQuiz ? { title: `${id} quiz`, draw: 6, questions: [], timeLimitMinutes: null, blueprint: null } : null,
    };
  });
  return {
    card: {} as CatalogueCourse["card"],
    version: 1,
    line: 1,
    publishedAt: null,
    latestVersion: 1,
    newer: [],
    assessedSince: new Map(),
    update: null,
    review: null,
    learningOutcomes: [],
    seo: { title: "", description: "", keywords: [] },
    modules,
    lessons,
    lessonsById: new Map(lessons.map((l) => [l.id, l])),
    modulesById: new Map(modules.map((m) => [m.id, m])),
    studyHours: null,
    quizCount: 2,
    exam: withExam ? { title: "Final exam", draw: 20, questions: [], timeLimitMinutes: 60, blueprint: null } : null,
    practical: null,
    assessment: { maxAttempts: null, cooldownHours: null },
  };
}

const records = (done: string[], passed: string[] = [], failed: string[] = []): LearnerRecords => ({
  enrolled: true,
  courseLine: 1,
  attempts: [],
  practicalPasses: [],
  completedLessons: new Set(done),
  quizStats: new Map<string, { score: number; bestScore: number; attempts: number; passed: boolean }>([
    ...passed.map((m): [string, { score: number; bestScore: number; attempts: number; passed: boolean }] => [
      m,
      { score: 100, bestScore: 100, attempts: 1, passed: true },
    ]),
    ...failed.map((m): [string, { score: number; bestScore: number; attempts: number; passed: boolean }] => [
      m,
      { score: 40, bestScore: 40, attempts: 1, passed: false },
    ]),
  ]),
  practicalPassed: false,
  progress: null,
});

const states = (r: LearnerRecords) => [...computeCourseState(course(), r).moduleStates.values()];

describe("module states", () => {
  it("opens only the first module to a new learner, and nothing is complete", () => {
    expect(states(records([]))).toEqual(["in-progress", "locked", "locked"]);
    expect(computeCourseState(course(), records([])).percent).toBe(0);
  });

  it("completes a quiz module by passing its quiz, which opens the next one; a failed quiz keeps it open", () => {
    expect(states(records(["alpha-1"], [], ["alpha"]))).toEqual(["in-progress", "locked", "locked"]);
    expect(states(records([], ["alpha"]))).toEqual(["complete", "in-progress", "locked"]);
  });

  it("completes a module without a quiz only when every one of its lessons is done", () => {
    const quizzesPassed = records([], ["alpha", "beta"]);
    expect(states(quizzesPassed)).toEqual(["complete", "complete", "in-progress"]);
    expect(computeCourseState(course(), quizzesPassed).allModulesComplete).toBe(false);
    const all = records(["gamma-1"], ["alpha", "beta"]);
    expect(states(all)).toEqual(["complete", "complete", "complete"]);
    expect(computeCourseState(course(), all).allModulesComplete).toBe(true);
  });

  it("opens a module when the one just before it is complete", () => {
    // beta passed (say, before a content change) while alpha is not: gamma opens after beta.
    expect(states(records([], ["beta"]))).toEqual(["in-progress", "complete", "in-progress"]);
  });

  it("shows a visitor (not enrolled) nothing complete, whatever records exist", () => {
    expect(states({ ...records(["gamma-1"], ["alpha", "beta"]), enrolled: false })).toEqual([
      "in-progress",
      "locked",
      "locked",
    ]);
  });

  it("points at the first incomplete module and its first unread lesson", () => {
    const state = computeCourseState(course(), records(["beta-1"], ["alpha"]));
    expect([state.currentModuleIndex, state.currentLessonIndex]).toEqual([1, 1]);
  });
});

describe("preview and unlock rules", () => {
  it("opens the first lesson and the first quiz to anyone, the rest by enrolment and unlock", () => {
    const c = course();
    const visitor = computeCourseState(c, NO_RECORDS);
    expect(canReadLesson(c, "alpha-1", NO_RECORDS, visitor)).toBe(true);
    expect(canReadLesson(c, "alpha-2", NO_RECORDS, visitor)).toBe(false);
    expect(canTakeQuiz(c, "alpha", NO_RECORDS, visitor)).toBe(true);
    const learner = records([]);
    const state = computeCourseState(c, learner);
    expect(canReadLesson(c, "alpha-2", learner, state)).toBe(true);
    expect(canReadLesson(c, "beta-1", learner, state)).toBe(false);
    expect(canTakeQuiz(c, "beta", learner, state)).toBe(false);
    expect(canReadLesson(c, "no-such-lesson", learner, state)).toBe(false);
  });
});

describe("completion", () => {
  const ALL_LESSONS = ["alpha-1", "alpha-2", "beta-1", "beta-2", "gamma-1"];

  it("needs every lesson, not only the quizzes", () => {
    const state = computeCourseState(course(), records(["gamma-1"], ["alpha", "beta"]));
    expect(state.allModulesComplete).toBe(true);
    expect(state.courseComplete).toBe(false);
    expect(state.missing).toEqual(["4 lessons"]);
    expect(computeCourseState(course(), records(ALL_LESSONS, ["alpha", "beta"])).courseComplete).toBe(true);
  });

  it("needs the final exam when the course has one, which opens once every module is complete", () => {
    const before = computeCourseState(course(true), records(["alpha-1"], ["alpha"]));
    expect(before.examUnlocked).toBe(false);
    const modulesDone = computeCourseState(course(true), records(ALL_LESSONS, ["alpha", "beta"]));
    expect(modulesDone).toMatchObject({ examUnlocked: true, examPassed: false, courseComplete: false });
    expect(modulesDone.missing).toEqual(["the final exam"]);
    // 70 for the lessons + 30 x 2 of 3 quizzes (the exam counts as one).
    expect(modulesDone.percent).toBe(90);
    const done = computeCourseState(course(true), records(ALL_LESSONS, ["alpha", "beta", FINAL_EXAM_ID]));
    expect(done).toMatchObject({ examPassed: true, courseComplete: true, missing: [], percent: 100 });
  });

  it("needs a required practical, which counts as one more assessment in the progress formula", () => {
    const practical = (requiredForCertificate: boolean): CatalogueCourse => ({
      ...course(true),
      practical: {
        title: "Practical",
        briefHtml: "<p>Do it.</p>",
        criteria: [],
        passRule: { minimumLevel: "Competent", minPercent: null },
        requiredForCertificate,
        evidence: "written",
        assessorRequirements: "A coaching credential.",
        redFlagSteps: "Stop and refer.",
        exemplars: [],
      },
    });
    const examDone = records(ALL_LESSONS, ["alpha", "beta", FINAL_EXAM_ID]);
    const waiting = computeCourseState(practical(true), examDone);
    expect(waiting).toMatchObject({ practicalUnlocked: true, courseComplete: false });
    expect(waiting.missing).toEqual(["the practical assessment"]);
    // 70 for the lessons + 30 x 3 of 4 assessments (2 quizzes, the exam, the practical).
    expect(waiting.percent).toBe(93);
    const passed = computeCourseState(practical(true), { ...examDone, practicalPassed: true });
    expect(passed).toMatchObject({ practicalPassed: true, courseComplete: true, missing: [], percent: 100 });
    // A practical the certificate does not require is neither missing nor counted.
    expect(computeCourseState(practical(false), examDone)).toMatchObject({ courseComplete: true, percent: 100 });
    expect(computeCourseState(practical(true), records(["alpha-1"], ["alpha"])).practicalUnlocked).toBe(false);
  });

  it("names what is missing in one sentence", () => {
    const state = computeCourseState(course(true), records(["alpha-1"], [], ["alpha"]));
    expect(notCompleteMessage("requesting your certificate", state.missing)).toBe(
      'Complete 4 lessons, the quiz of "alpha", the quiz of "beta" and the final exam before requesting your certificate (every quiz and the final exam need at least 80%).',
    );
  });
});
