import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "#client/lib/api-client.ts";
import type { MutationConfig } from "#client/lib/query-client.ts";
import { queryKeys } from "#client/lib/query-keys.ts";
import type { MyLearningCourse, Progress, Quiz, QuizResult } from "#shared/schemas/learning.ts";

const enc = encodeURIComponent;

export const getQuiz = (courseId: string, moduleId: string) =>
  api.get<Quiz>(`/api/quiz/${enc(courseId)}/${enc(moduleId)}`);
export const quizQueryOptions = (courseId: string, moduleId: string) =>
  queryOptions({
    queryKey: queryKeys.quiz(courseId, moduleId),
    queryFn: () => getQuiz(courseId, moduleId),
    refetchOnWindowFocus: false,
  });
export const useQuiz = (courseId: string, moduleId: string) => useQuery(quizQueryOptions(courseId, moduleId));

/** Grades an attempt; the course (unlocks, percent), this quiz and My Learning are read again. */
export function useSubmitQuiz(
  courseId: string,
  moduleId: string,
  config: MutationConfig<QuizResult, Record<string, string>> = {},
) {
  const queryClient = useQueryClient();
  const { onSuccess, ...rest } = config;
  return useMutation({
    ...rest,
    mutationFn: (answers: Record<string, string>) =>
      api.post<QuizResult>(`/api/quiz/${enc(courseId)}/${enc(moduleId)}`, { answers }),
    onSuccess: async (...args) => {
      await onSuccess?.(...args);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.courses.detail(courseId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.quiz(courseId, moduleId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.myLearning() }),
      ]);
    },
  });
}

export const getProgress = (courseId: string) => api.get<Progress>(`/api/progress/${enc(courseId)}`);

export const getMyLearning = () => api.get<MyLearningCourse[]>("/api/my-learning");
export const myLearningQueryOptions = () => queryOptions({ queryKey: queryKeys.myLearning(), queryFn: getMyLearning });
export const useMyLearning = () => useQuery(myLearningQueryOptions());
