import { matchClientRoute } from "#shared/client-routes.ts";
import type { Catalogue } from "../courses/course-catalogue.ts";

/**
 * The status the app shell is sent with: 404 for a path the app has no page for, and for a course,
 * lesson, quiz or exam page whose content does not exist (the app then shows its not-found message).
 * Only the in-memory catalogue is consulted; ids it cannot check (certificates, checkout sessions)
 * answer 200, and so does every page while the catalogue cannot be read (the app reports that itself).
 */
export async function pageStatus(pathname: string, catalogue: () => Promise<Catalogue>): Promise<200 | 404> {
  const match = matchClientRoute(pathname);
  if (!match) return 404;
  const param = (key: string) => {
    try {
      return decodeURIComponent(match.params[key] ?? "");
    } catch {
      return "";
    }
  };
  if (match.params.courseId === undefined) return 200;
  let content: Catalogue;
  try {
    content = await catalogue();
  } catch {
    return 200;
  }
  const course = content.byId.get(param("courseId"));
  if (!course) return 404;
  switch (match.name) {
    case "lesson":
      return course.lessonsById.has(param("lessonId")) ? 200 : 404;
    case "quiz":
      return course.modulesById.get(param("moduleId"))?.quiz ? 200 : 404;
    case "exam":
    case "recertify":
      return course.exam ? 200 : 404;
    case "practical":
      return course.practical ? 200 : 404;
    default:
      return 200;
  }
}
