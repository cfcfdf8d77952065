import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, dataOf } from "#client/lib/api-client.ts";
import { queryKeys } from "#client/lib/query-keys.ts";
import type { PracticalState } from "#shared/schemas/practical.ts";

// The learner's practical, read by the course page and the practical page.

export const getPractical = (courseId: string) =>
  dataOf(api.GET("/api/practical/{courseId}", { params: { path: { courseId } } }));
export const practicalQueryOptions = (courseId: string) =>
  queryOptions({ queryKey: queryKeys.practical(courseId), queryFn: () => getPractical(courseId), retry: false });
export const usePractical = (courseId: string, enabled = true) =>
  useQuery({ ...practicalQueryOptions(courseId), enabled });

export const PRACTICAL_STATE_TEXT: Record<PracticalState, string> = {
  locked: "Opens when every module is complete",
  open: "Ready for your submission",
  waiting: "Submitted: waiting for an assessor",
  passed: "Passed",
  resubmit: "Resubmission requested",
  closed: "No submissions left: ask an admin",
};

/** "about 5 days", "about 1 day". */
export const reviewTimeText = (days: number) => `about ${days} day${days === 1 ? "" : "s"}`;
