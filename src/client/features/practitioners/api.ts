import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api } from "#client/lib/api-client.ts";
import { queryKeys } from "#client/lib/query-keys.ts";
import type { PractitionerDirectory } from "#shared/schemas/practitioners.ts";

export const getPractitioners = (course: string, region: string) => {
  const params = new URLSearchParams();
  if (course) params.set("course", course);
  if (region) params.set("region", region);
  const query = params.toString();
  return api.get<PractitionerDirectory>(`/api/practitioners${query ? `?${query}` : ""}`);
};

export const usePractitioners = (course: string, region: string) =>
  useQuery({
    queryKey: queryKeys.practitioners.directory(course, region),
    queryFn: () => getPractitioners(course, region),
    placeholderData: keepPreviousData,
  });
