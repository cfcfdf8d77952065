import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "#client/lib/api-client.ts";
import type { Lesson } from "#shared/schemas/courses.ts";

export const getLesson = (courseId: string, lessonId: string) =>
  api.get<Lesson>(`/api/courses/${encodeURIComponent(courseId)}/lessons/${encodeURIComponent(lessonId)}`);
export const lessonQueryOptions = (courseId: string, lessonId: string) =>
  queryOptions({
    queryKey: ["/api/courses", courseId, "lessons", lessonId],
    queryFn: () => getLesson(courseId, lessonId),
  });
export const useLesson = (courseId: string, lessonId: string) => useQuery(lessonQueryOptions(courseId, lessonId));

export const completeLesson = (courseId: string, lessonId: string) =>
  api.post<{ completed: true }>(
    `/api/progress/${encodeURIComponent(courseId)}/lessons/${encodeURIComponent(lessonId)}/complete`,
  );
