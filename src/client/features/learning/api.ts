import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, dataOf } from "#client/lib/api-client.ts";
import type { MutationConfig } from "#client/lib/query-client.ts";
import { queryKeys } from "#client/lib/query-keys.ts";
import type { QuizResult, QuizSubmission } from "#shared/schemas/learning.ts";

/** Stands for the recertification exam where a module id is expected (no module id starts with '#'). */
export const RECERTIFICATION = "#recertification";

/**
 * Starts an attempt (the server draws its questions) or resumes the open one. A POST behind the
 * origin check, so a link on another site never starts one (decision 0051).
 */
export const startAssessment = (courseId: string, moduleId: string | null) =>
  dataOf(
    moduleId === null
      ? api.POST("/api/exam/{courseId}/attempt", { params: { path: { courseId } } })
      : moduleId === RECERTIFICATION
        ? api.POST("/api/recertification/{courseId}/attempt", { params: { path: { courseId } } })
        : api.POST("/api/quiz/{courseId}/{moduleId}/attempt", { params: { path: { courseId, moduleId } } }),
  );
/** The attempt's start; the exam's rules (attempts left, in progress) are read again. */
export function useStartAssessment(courseId: string, moduleId: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => startAssessment(courseId, moduleId),
    onSuccess: async () => {
      if (moduleId === null) await queryClient.invalidateQueries({ queryKey: queryKeys.examRules(courseId) });
      if (moduleId === RECERTIFICATION)
        await queryClient.invalidateQueries({ queryKey: queryKeys.recertificationRules(courseId) });
    },
  });
}

/** The final exam's rules for this learner; reading them starts nothing. */
export const getExamRules = (courseId: string) =>
  dataOf(api.GET("/api/exam/{courseId}/rules", { params: { path: { courseId } } }));
export const examRulesQueryOptions = (courseId: string) =>
  queryOptions({ queryKey: queryKeys.examRules(courseId), queryFn: () => getExamRules(courseId), retry: false });
export const useExamRules = (courseId: string) => useQuery(examRulesQueryOptions(courseId));

/** The recertification exam's rules for this learner and the certificate it renews; reading them starts nothing. */
export const useRecertificationRules = (courseId: string) =>
  useQuery({
    queryKey: queryKeys.recertificationRules(courseId),
    queryFn: () => dataOf(api.GET("/api/recertification/{courseId}/rules", { params: { path: { courseId } } })),
    retry: false,
  });

/** Grades the attempt; the course (unlocks, percent) and My Learning are read again. */
export function useSubmitAssessment(
  courseId: string,
  moduleId: string | null,
  config: MutationConfig<QuizResult, QuizSubmission> = {},
) {
  const queryClient = useQueryClient();
  const { onSuccess, ...rest } = config;
  return useMutation({
    ...rest,
    mutationFn: (body: QuizSubmission) =>
      dataOf(
        moduleId === null
          ? api.POST("/api/exam/{courseId}", { params: { path: { courseId } }, body })
          : moduleId === RECERTIFICATION
            ? api.POST("/api/recertification/{courseId}", { params: { path: { courseId } }, body })
            : api.POST("/api/quiz/{courseId}/{moduleId}", { params: { path: { courseId, moduleId } }, body }),
      ),
    onSuccess: async (...args) => {
      await onSuccess?.(...args);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.courses.detail(courseId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.myLearning() }),
        moduleId === null && queryClient.invalidateQueries({ queryKey: queryKeys.examRules(courseId) }),
        ...(moduleId === RECERTIFICATION
          ? [
              queryClient.invalidateQueries({ queryKey: queryKeys.certificates.all() }),
              queryClient.invalidateQueries({ queryKey: queryKeys.certificates.course(courseId) }),
            ]
          : []),
      ]);
    },
  });
}

export const getProgress = (courseId: string) =>
  dataOf(api.GET("/api/progress/{courseId}", { params: { path: { courseId } } }));

export const getMyLearning = () => dataOf(api.GET("/api/my-learning"));
export const myLearningQueryOptions = () => queryOptions({ queryKey: queryKeys.myLearning(), queryFn: getMyLearning });
export const useMyLearning = () => useQuery(myLearningQueryOptions());
