/** A course's sections in the studio, in the order an author works through them (docs/decisions/0060). */
export const STUDIO_SECTIONS = [
  { path: "settings", label: "Settings" },
  { path: "outline", label: "Outline" },
  { path: "lessons", label: "Lessons" },
  { path: "question-banks", label: "Question banks" },
  { path: "exam", label: "Exam" },
  { path: "practical", label: "Practical" },
  { path: "preview", label: "Preview" },
  { path: "publish", label: "Publish" },
  { path: "versions", label: "Versions" },
] as const;
export type StudioSectionPath = (typeof STUDIO_SECTIONS)[number]["path"];
