import { courseQueryOptions, coursesQueryOptions } from "#client/lib/courses.ts";
import { paymentsConfigQueryOptions } from "#client/lib/payments.ts";
import { queryKeys } from "#client/lib/query-keys.ts";
import { siteConfigQueryOptions } from "#client/lib/site-config.ts";
import { matchClientRoute } from "#shared/client-routes.ts";
import { serverRenderedPages } from "./routes.tsx";

/** One read a page renders from: its cache key and the API path (a visitor's GET) that answers it. */
export interface PageQuery {
  queryKey: readonly unknown[];
  path: string;
}

export type ServerPageName = keyof typeof serverRenderedPages;
export interface ServerPage {
  /** Which page (the server renderer knows its module, to preload its chunks). */
  name: ServerPageName;
  /** The page's code, loaded before rendering or hydrating so nothing suspends. */
  preload: () => Promise<unknown>;
  queries: PageQuery[];
}

const enc = encodeURIComponent;
const decode = (value: string | undefined) => {
  try {
    return decodeURIComponent(value ?? "");
  } catch {
    return null;
  }
};

/**
 * The public pages the server renders for a visitor (decision 0032): the landing page, course
 * pages, a course's preview lesson (decision 0046), the practitioner directory, verify pages, and
 * sign-in, terms and privacy (decision 0067), with the reads each needs, keyed as the components read them so hydration finds them in the
 * cache. Null for every other page.
 */
export function serverPageFor(pathname: string, search: string): ServerPage | null {
  const match = matchClientRoute(pathname);
  if (!match) return null;
  // Every page's header and footer read the site settings and texts.
  const site: PageQuery = { queryKey: siteConfigQueryOptions().queryKey, path: "/api/config" };
  const courses: PageQuery = { queryKey: coursesQueryOptions().queryKey, path: "/api/courses" };
  const course = (courseId: string): PageQuery => ({
    queryKey: courseQueryOptions(courseId).queryKey,
    path: `/api/courses/${enc(courseId)}`,
  });
  const page = (name: ServerPageName) => ({ name, preload: serverRenderedPages[name].preload });
  const payments: PageQuery = { queryKey: paymentsConfigQueryOptions().queryKey, path: "/api/payments/config" };
  switch (match.name) {
    case "home":
      return {
        ...page("home"),
        queries: [site, courses],
      };
    case "login":
    case "terms":
    case "privacy":
      // Pages of the site settings alone.
      return {
        ...page(match.name),
        queries: [site],
      };
    case "course": {
      const courseId = decode(match.params.courseId);
      if (!courseId) return null;
      return {
        ...page("course"),
        queries: [site, course(courseId), payments],
      };
    }
    case "lesson": {
      // The preview lesson only: any other answers a visitor 401 or 403, and the browser renders it.
      const courseId = decode(match.params.courseId);
      const lessonId = decode(match.params.lessonId);
      if (!courseId || !lessonId) return null;
      return {
        ...page("lesson"),
        queries: [
          site,
          course(courseId),
          {
            queryKey: queryKeys.courses.lesson(courseId, lessonId),
            path: `/api/courses/${enc(courseId)}/lessons/${enc(lessonId)}`,
          },
          payments,
        ],
      };
    }
    case "practitioners": {
      const params = new URLSearchParams(search);
      const courseFilter = params.get("course") ?? "";
      const region = params.get("region") ?? "";
      // As the directory asks: empty filters are left out.
      const query = new URLSearchParams();
      if (courseFilter) query.set("course", courseFilter);
      if (region) query.set("region", region);
      const qs = query.toString();
      return {
        ...page("practitioners"),
        queries: [
          site,
          courses,
          {
            queryKey: queryKeys.practitioners.directory(courseFilter, region),
            path: `/api/practitioners${qs ? `?${qs}` : ""}`,
          },
        ],
      };
    }
    case "verify": {
      const certificateId = decode(match.params.certificateId);
      if (!certificateId) return null;
      return {
        ...page("verify"),
        queries: [
          site,
          {
            queryKey: queryKeys.certificates.verification(certificateId),
            path: `/api/verify/${enc(certificateId)}`,
          },
        ],
      };
    }
    default:
      return null;
  }
}
