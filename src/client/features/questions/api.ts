import {
  keepPreviousData,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from "@tanstack/react-query";
import { api, dataOf } from "#client/lib/api-client.ts";
import type { MutationConfig } from "#client/lib/query-client.ts";
import { queryKeys } from "#client/lib/query-keys.ts";
import type { NewAnswer, NewQuestion, QuestionDetail, ReportInput } from "#shared/schemas/questions.ts";

export const useLessonQuestions = (courseId: string, lessonId: string) =>
  useInfiniteQuery({
    queryKey: queryKeys.questions.lesson(courseId, lessonId),
    initialPageParam: "",
    queryFn: ({ pageParam }) =>
      dataOf(
        api.GET("/api/courses/{courseId}/lessons/{lessonId}/questions", {
          params: { path: { courseId, lessonId }, query: pageParam ? { cursor: pageParam } : {} },
        }),
      ),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    retry: false,
  });

export const commonQuestionsOptions = (courseId: string, lessonId: string) =>
  queryOptions({
    queryKey: queryKeys.questions.common(courseId, lessonId),
    queryFn: () =>
      dataOf(
        api.GET("/api/courses/{courseId}/lessons/{lessonId}/common-questions", {
          params: { path: { courseId, lessonId } },
        }),
      ),
    retry: false,
  });
export const useCommonQuestions = (courseId: string, lessonId: string) =>
  useQuery(commonQuestionsOptions(courseId, lessonId));

export const useQuestion = (questionId: string | null) =>
  useQuery({
    queryKey: queryKeys.questions.detail(questionId ?? ""),
    queryFn: () =>
      dataOf(api.GET("/api/questions/{questionId}", { params: { path: { questionId: questionId ?? "" } } })),
    enabled: questionId !== null,
    retry: false,
  });

export const useQuestionSearch = (courseId: string, search: string, lessonId?: string) =>
  useQuery({
    queryKey: queryKeys.questions.search(courseId, search, lessonId),
    queryFn: () =>
      dataOf(
        api.GET("/api/courses/{courseId}/questions", {
          params: { path: { courseId }, query: lessonId ? { search, lessonId } : { search } },
        }),
      ),
    enabled: search.trim().length >= 3,
    placeholderData: keepPreviousData,
    retry: false,
  });

export const useStaffQueue = () =>
  useQuery({
    queryKey: queryKeys.questions.staffQueue(),
    queryFn: () => dataOf(api.GET("/api/staff/questions", { params: { query: { status: "unanswered" } } })),
  });

/** Every write answers the question as it now stands; the lesson's lists and the queue refresh. */
function useQuestionWrite<TVariables>(
  request: (variables: TVariables) => Promise<QuestionDetail>,
  config: MutationConfig<QuestionDetail, TVariables> = {},
) {
  const queryClient = useQueryClient();
  const { onSuccess, ...rest } = config;
  return useMutation({
    ...rest,
    mutationFn: request,
    onSuccess: async (data, ...args) => {
      queryClient.setQueryData(queryKeys.questions.detail(data.id), data);
      await onSuccess?.(data, ...args);
      await queryClient.invalidateQueries({ queryKey: queryKeys.questions.all() });
    },
  });
}

export const useAskQuestion = (
  courseId: string,
  lessonId: string,
  config?: MutationConfig<QuestionDetail, NewQuestion>,
) =>
  useQuestionWrite(
    (body: NewQuestion) =>
      dataOf(
        api.POST("/api/courses/{courseId}/lessons/{lessonId}/questions", {
          params: { path: { courseId, lessonId } },
          body,
        }),
      ),
    config,
  );

export const useAnswer = (questionId: string, config?: MutationConfig<QuestionDetail, NewAnswer>) =>
  useQuestionWrite(
    (body: NewAnswer) =>
      dataOf(api.POST("/api/questions/{questionId}/answers", { params: { path: { questionId } }, body })),
    config,
  );

export const useAccept = (config?: MutationConfig<QuestionDetail, string>) =>
  useQuestionWrite(
    (answerId: string) => dataOf(api.POST("/api/answers/{answerId}/accept", { params: { path: { answerId } } })),
    config,
  );

/** Upvote, follow and promote: each on or off, then the question is read again. */
export function useToggle(questionId: string, what: "upvote" | "follow" | "promote") {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (on: boolean) => {
      const options = { params: { path: { questionId } } };
      if (what === "upvote")
        await dataOf(
          on
            ? api.POST("/api/questions/{questionId}/upvote", options)
            : api.DELETE("/api/questions/{questionId}/upvote", options),
        );
      else if (what === "follow")
        await dataOf(
          on
            ? api.POST("/api/questions/{questionId}/follow", options)
            : api.DELETE("/api/questions/{questionId}/follow", options),
        );
      else
        await dataOf(
          on
            ? api.POST("/api/questions/{questionId}/promote", options)
            : api.DELETE("/api/questions/{questionId}/promote", options),
        );
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.questions.all() }),
  });
}

export const useReport = (postId: string, config?: MutationConfig<{ ok: true }, ReportInput>) =>
  useMutation({
    ...config,
    mutationFn: (body: ReportInput) =>
      dataOf(api.POST("/api/posts/{postId}/report", { params: { path: { postId } }, body })),
  });

export const usePreview = () =>
  useMutation({ mutationFn: (body: string) => dataOf(api.POST("/api/posts/preview", { body: { body } })) });
