import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api, dataOf } from "#client/lib/api-client.ts";
import { queryKeys } from "#client/lib/query-keys.ts";

export const getPractitioners = (course: string, region: string) =>
  dataOf(
    api.GET("/api/practitioners", { params: { query: { course: course || undefined, region: region || undefined } } }),
  );

export const usePractitioners = (course: string, region: string) =>
  useQuery({
    queryKey: queryKeys.practitioners.directory(course, region),
    queryFn: () => getPractitioners(course, region),
    placeholderData: keepPreviousData,
  });
