import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, dataOf } from "#client/lib/api-client.ts";
import { queryKeys } from "#client/lib/query-keys.ts";
import type { CourseStaffInput } from "#shared/schemas/staff.ts";

// Course staff (decision 0053), assigned from the admin's learners page and from the studio.

/** Every assignment of an instructor or assessor to a course. */
export const useCourseStaff = () =>
  useQuery({
    queryKey: queryKeys.admin.courseStaff(),
    queryFn: () => dataOf(api.GET("/api/admin/course-staff")),
  });

function useStaffMutation<TResult>(mutationFn: (input: CourseStaffInput) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () =>
      Promise.all(
        [queryKeys.admin.courseStaff(), queryKeys.admin.audit(), queryKeys.studio.courses()].map((queryKey) =>
          queryClient.invalidateQueries({ queryKey }),
        ),
      ),
  });
}

/** Assigns an instructor or assessor to a course (audited). */
export const useAssignCourseStaff = () =>
  useStaffMutation((body: CourseStaffInput) => dataOf(api.POST("/api/admin/course-staff", { body })));

/** Unassigns an instructor or assessor from a course (audited). */
export const useUnassignCourseStaff = () =>
  useStaffMutation((path: CourseStaffInput) =>
    dataOf(api.DELETE("/api/admin/course-staff/{userId}/{courseId}/{role}", { params: { path } })),
  );
