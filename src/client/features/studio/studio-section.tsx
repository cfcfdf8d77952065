import type { ReactNode } from "react";
import { useParams } from "react-router";
import { useDocumentMeta } from "#client/lib/use-document-meta.ts";
import { BRAND_NAME } from "#shared/constants.ts";
import { useDraft } from "./api.ts";

/** The course the studio's section is about (the layout's route has the id). */
export function useStudioCourseId() {
  return useParams().courseId ?? "";
}

/** The course's draft as the section pages read it (the layout loads it before any section renders). */
export function useStudioDraft() {
  return useDraft(useStudioCourseId());
}

/** A section of a course in the studio: its heading (focused after each route change) and its title. */
export function StudioSection({
  title,
  actions,
  children,
}: {
  title: string;
  actions?: ReactNode;
  children: ReactNode;
}) {
  const courseId = useStudioCourseId();
  const draft = useStudioDraft();
  const courseTitle = draft.data?.document.course.title;
  const named = typeof courseTitle === "string" ? courseTitle : courseId;
  useDocumentMeta({ title: `${title}: ${named} | Studio | ${BRAND_NAME}`, description: `${title} of ${named}.` });
  return (
    <section aria-labelledby="studio-section-title">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 id="studio-section-title" className="font-serif text-2xl font-bold">
          {title}
        </h1>
        {actions}
      </div>
      <div className="mt-4">{children}</div>
    </section>
  );
}

/** A section another part of the studio fills in. */
export function StudioPlaceholder({ title, what }: { title: string; what: string }) {
  return (
    <StudioSection title={title}>
      <p className="text-muted">{what}</p>
    </StudioSection>
  );
}
