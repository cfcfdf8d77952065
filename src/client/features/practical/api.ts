import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, apiUpload, dataOf } from "#client/lib/api-client.ts";
import type { MutationConfig } from "#client/lib/query-client.ts";
import { queryKeys } from "#client/lib/query-keys.ts";
import type {
  AssessorProfileInput,
  CalibrationExemplar,
  LearnerPractical,
  ReviewInput,
  ReviewSubmission,
} from "#shared/schemas/practical.ts";

/** Sends the written work, the consent and the files as one multipart form. */
export function useSubmitPractical(courseId: string, config: MutationConfig<LearnerPractical, FormData> = {}) {
  const queryClient = useQueryClient();
  const { onSuccess, ...rest } = config;
  return useMutation({
    ...rest,
    mutationFn: (form: FormData) => apiUpload<LearnerPractical>(`/api/practical/${encodeURIComponent(courseId)}`, form),
    onSuccess: async (data, ...args) => {
      queryClient.setQueryData(queryKeys.practical(courseId), data);
      await onSuccess?.(data, ...args);
      await queryClient.invalidateQueries({ queryKey: queryKeys.courses.detail(courseId) });
    },
  });
}

export const reviewQueueQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.review.queue(), queryFn: () => dataOf(api.GET("/api/review/queue")) });
export const useReviewQueue = () => useQuery(reviewQueueQueryOptions());

export const reviewSubmissionQueryOptions = (number: number) =>
  queryOptions({
    queryKey: queryKeys.review.submission(number),
    queryFn: () => dataOf(api.GET("/api/review/submissions/{number}", { params: { path: { number } } })),
    retry: false,
  });
export const useReviewSubmission = (number: number) => useQuery(reviewSubmissionQueryOptions(number));

/** Claim, release or review: each answers the submission as it now stands. */
function useReviewAction<TVariables>(
  number: number,
  request: (variables: TVariables) => Promise<ReviewSubmission>,
  config: MutationConfig<ReviewSubmission, TVariables>,
) {
  const queryClient = useQueryClient();
  const { onSuccess, ...rest } = config;
  return useMutation({
    ...rest,
    mutationFn: request,
    onSuccess: async (data, ...args) => {
      queryClient.setQueryData(queryKeys.review.submission(number), data);
      await onSuccess?.(data, ...args);
      await queryClient.invalidateQueries({ queryKey: queryKeys.review.queue() });
    },
  });
}

export const useClaimSubmission = (number: number, config: MutationConfig<ReviewSubmission, void> = {}) =>
  useReviewAction(
    number,
    () => dataOf(api.POST("/api/review/submissions/{number}/claim", { params: { path: { number } } })),
    config,
  );
export const useReleaseSubmission = (number: number, config: MutationConfig<ReviewSubmission, void> = {}) =>
  useReviewAction(
    number,
    () => dataOf(api.POST("/api/review/submissions/{number}/release", { params: { path: { number } } })),
    config,
  );
export const useSubmitReview = (number: number, config: MutationConfig<ReviewSubmission, ReviewInput> = {}) =>
  useReviewAction(
    number,
    (body: ReviewInput) =>
      dataOf(api.POST("/api/review/submissions/{number}/review", { params: { path: { number } }, body })),
    config,
  );

/** Calibration's query keys (kept here, not in lib/query-keys.ts: only the review area loads them). */
const CALIBRATION_KEY = ["/api/review/calibration"] as const;

export const useCalibration = () =>
  useQuery({
    queryKey: CALIBRATION_KEY,
    queryFn: () => dataOf(api.GET("/api/review/calibration")),
  });

export const useExemplar = (courseId: string, exemplarId: string) =>
  useQuery({
    queryKey: [...CALIBRATION_KEY, courseId, exemplarId],
    queryFn: () =>
      dataOf(
        api.GET("/api/review/calibration/{courseId}/{exemplarId}", { params: { path: { courseId, exemplarId } } }),
      ),
    retry: false,
  });

/** Scores an exemplar; answers it with the agreed scores and the rationale beside the assessor's. */
export function useScoreExemplar(
  courseId: string,
  exemplarId: string,
  config: MutationConfig<CalibrationExemplar, ReviewInput> = {},
) {
  const queryClient = useQueryClient();
  const { onSuccess, ...rest } = config;
  return useMutation({
    ...rest,
    mutationFn: (body: ReviewInput) =>
      dataOf(
        api.POST("/api/review/calibration/{courseId}/{exemplarId}", {
          params: { path: { courseId, exemplarId } },
          body,
        }),
      ),
    onSuccess: async (data, ...args) => {
      queryClient.setQueryData([...CALIBRATION_KEY, courseId, exemplarId], data);
      await onSuccess?.(data, ...args);
      await queryClient.invalidateQueries({ queryKey: CALIBRATION_KEY, exact: true });
      await queryClient.invalidateQueries({ queryKey: queryKeys.review.queue() });
    },
  });
}

export function useSaveAssessorProfile(config: MutationConfig<unknown, AssessorProfileInput> = {}) {
  const queryClient = useQueryClient();
  const { onSuccess, ...rest } = config;
  return useMutation({
    ...rest,
    mutationFn: (body: AssessorProfileInput) => dataOf(api.PUT("/api/review/profile", { body })),
    onSuccess: async (data, ...args) => {
      await onSuccess?.(data, ...args);
      await queryClient.invalidateQueries({ queryKey: CALIBRATION_KEY, exact: true });
    },
  });
}
