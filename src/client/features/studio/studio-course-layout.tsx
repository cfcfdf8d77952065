import { Link, NavLink, Outlet } from "react-router";
import { PageContainer, Spinner } from "#client/components/ui/misc.tsx";
import { paths } from "#client/config/paths.ts";
import { refusal } from "#client/lib/api-client.ts";
import { STUDIO_SECTIONS } from "./sections.ts";
import { useStudioCourseId, useStudioDraft } from "./studio-section.tsx";

/** A course in the studio: its name, where its draft stands, the sections, and the open section. */
export function StudioCourseLayout() {
  const courseId = useStudioCourseId();
  const draft = useStudioDraft();
  const title = draft.data?.document.course.title;
  return (
    <PageContainer>
      <p className="text-sm">
        <Link to={paths.studio} className="font-semibold text-brand-700 underline">
          Studio
        </Link>
        <span aria-hidden="true"> / </span>
        <span className="text-muted">{typeof title === "string" ? title : courseId}</span>
      </p>
      {draft.data && (
        <p className="mt-1 text-sm text-muted">
          {draft.data.revision === 0 ? "No draft yet: editing starts one" : `Draft revision ${draft.data.revision}`}
          {draft.data.baseVersion !== null ? `, based on version ${draft.data.baseVersion}` : ", never published"}
        </p>
      )}
      <nav aria-label="Course sections" className="mt-4 border-b border-line pb-3">
        <ul className="flex flex-wrap gap-2">
          {STUDIO_SECTIONS.map((s) => (
            <li key={s.path}>
              <NavLink
                to={paths.studioCourse(courseId, s.path)}
                className={({ isActive }) =>
                  // The open section is underlined as well as filled: forced colours drop the fill.
                  `inline-block rounded-md px-3 py-2 text-sm font-medium ${isActive ? "bg-brand-700 text-white underline decoration-2 underline-offset-4" : "text-slate-700 hover:bg-slate-100"}`
                }
              >
                {s.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="mt-6">
        {draft.isPending ? (
          <Spinner label="Loading the draft" />
        ) : draft.isError ? (
          <div>
            <h1 className="font-serif text-2xl font-bold">This course cannot be opened</h1>
            <p role="alert" className="mt-2 text-danger">
              {refusal(draft.error, "The draft could not be loaded. Reload the page to try again.")}
            </p>
          </div>
        ) : (
          <Outlet />
        )}
      </div>
    </PageContainer>
  );
}
