import { Link, useParams } from "react-router";
import { paths } from "#client/config/paths.ts";
import type { Draft } from "#shared/schemas/studio.ts";
import { LessonEditor } from "./studio-lesson-editor.tsx";
import { StudioSection, useStudioCourseId, useStudioDraft } from "./studio-section.tsx";

/** Where the editor shows a media file: a draft's upload by its hash, else the course folder's file. */
export function mediaUrlFor(courseId: string, draft: Draft) {
  return (name: string) => {
    if (/^https:\/\//.test(name)) return name;
    const stored = draft.document.media.findLast((m) => m.name === name);
    return stored
      ? `/api/studio/courses/${courseId}/media/${encodeURIComponent(name)}?sha256=${stored.sha256}`
      : `/media/${courseId}/${encodeURIComponent(name)}`;
  };
}

const titleOf = (meta: Record<string, unknown>, id: string) => (typeof meta.title === "string" ? meta.title : id);

/** The course's lessons by module, and the open lesson's editor. */
export default function StudioLessonsPage() {
  const courseId = useStudioCourseId();
  const draft = useStudioDraft().data;
  const lessonId = useParams()["*"] ?? "";
  if (!draft) return null;
  const modules = draft.document.modules;
  const lesson = modules.flatMap((m) => m.lessons).find((l) => l.id === lessonId);
  return (
    <StudioSection title={lesson ? `Lesson: ${titleOf(lesson.meta, lesson.id)}` : "Lessons"}>
      <div className="grid gap-6 lg:grid-cols-[16rem_1fr]">
        <nav aria-label="Lessons of the course">
          {modules.length === 0 && <p className="text-muted">No modules yet: add them in the Outline.</p>}
          <ol className="space-y-4">
            {modules.map((m) => (
              <li key={m.id}>
                <p className="font-semibold">{titleOf(m.module, m.id)}</p>
                <ol className="mt-1 space-y-1">
                  {m.lessons.map((l) => (
                    <li key={l.id}>
                      <Link
                        to={`${paths.studioCourse(courseId, "lessons")}/${l.id}`}
                        aria-current={l.id === lessonId ? "page" : undefined}
                        className="text-brand-700 underline aria-[current=page]:font-bold"
                      >
                        {titleOf(l.meta, l.id)}
                      </Link>
                    </li>
                  ))}
                </ol>
              </li>
            ))}
          </ol>
        </nav>
        <div>
          {lesson ? (
            <LessonEditor
              key={lesson.id}
              courseId={courseId}
              lesson={lesson}
              revision={draft.revision}
              mediaUrl={mediaUrlFor(courseId, draft)}
            />
          ) : lessonId ? (
            <p role="alert">This course's draft has no lesson “{lessonId}”.</p>
          ) : (
            <p className="text-muted">Choose a lesson to edit.</p>
          )}
        </div>
      </div>
    </StudioSection>
  );
}
