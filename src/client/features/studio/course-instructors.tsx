import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { Button } from "#client/components/ui/button.tsx";
import { FormError, SelectField, useFormErrors } from "#client/components/ui/form.tsx";
import { Card } from "#client/components/ui/misc.tsx";
import { useToast } from "#client/components/ui/toast.tsx";
import { refusal } from "#client/lib/api-client.ts";
import { useAssignCourseStaff, useCourseStaff, useUnassignCourseStaff } from "#client/lib/course-staff.ts";
import { courseStaffInputSchema } from "#shared/schemas/staff.ts";
import { useInstructors, useStudioCourses } from "./api.ts";

const ASSIGN_COURSE_ID = "studio-assign-course";

/**
 * Admins: which instructors write which course, assign one more or unassign. Every course in the
 * studio is offered, a draft never published among them (docs/decisions/0060).
 */
export function CourseInstructors() {
  const staff = useCourseStaff();
  const instructors = useInstructors(true);
  const courses = useStudioCourses();
  const assign = useAssignCourseStaff();
  const unassign = useUnassignCourseStaff();
  const toast = useToast();
  const form = useForm({
    resolver: zodResolver(courseStaffInputSchema),
    defaultValues: { userId: "", courseId: "", role: "instructor" as const },
  });
  const error = useFormErrors(form);
  const assignments = (staff.data?.items ?? []).filter((a) => a.role === "instructor");

  const submit = form.handleSubmit(async (input) => {
    if (assign.isPending) return;
    try {
      const done = await assign.mutateAsync(input);
      form.reset({ userId: "", courseId: "", role: "instructor" });
      toast({ title: "Instructor Assigned", description: `${done.email}: ${done.courseTitle}` });
      document.getElementById(ASSIGN_COURSE_ID)?.focus();
    } catch (failure) {
      error.show(refusal(failure), "userId");
    }
  });
  const remove = async (a: (typeof assignments)[number]) => {
    if (unassign.isPending) return;
    try {
      await unassign.mutateAsync({ userId: a.userId, courseId: a.courseId, role: "instructor" });
      toast({ title: "Instructor Unassigned", description: `${a.email}: ${a.courseTitle}` });
      document.getElementById(ASSIGN_COURSE_ID)?.focus();
    } catch (failure) {
      toast({ title: "Not Unassigned", description: refusal(failure), variant: "destructive" });
    }
  };

  const loading = staff.isPending || instructors.isPending || courses.isPending;
  const failed = staff.error ?? instructors.error ?? courses.error;
  return (
    <section aria-labelledby="instructors">
      <h2 id="instructors" className="mb-3 text-lg font-semibold">
        Instructors
      </h2>
      {loading ? (
        <p className="text-sm text-muted">Loading instructors…</p>
      ) : failed ? (
        <p role="alert">{refusal(failed, "Instructors could not be loaded.")}</p>
      ) : (
        <Card className="p-4 sm:p-6">
          {assignments.length === 0 ? (
            <p className="text-sm text-muted">No instructor is assigned to a course yet.</p>
          ) : (
            <ul className="space-y-2 text-sm" aria-label="Assignments">
              {assignments.map((a) => (
                <li key={`${a.userId}:${a.courseId}`} className="flex flex-wrap items-center gap-2">
                  <span>
                    <span className="font-medium">
                      {a.firstName} {a.lastName}
                    </span>{" "}
                    ({a.email}) writes <span className="font-medium">{a.courseTitle}</span>
                  </span>
                  <Button size="sm" variant="ghost" aria-disabled={unassign.isPending} onClick={() => void remove(a)}>
                    Unassign
                    <span className="sr-only">
                      {" "}
                      {a.email} from {a.courseTitle}
                    </span>
                  </Button>
                </li>
              ))}
            </ul>
          )}
          {instructors.data?.length === 0 ? (
            <p className="mt-4 text-sm text-muted">
              No account has the instructor role: grant it from Admin → Learners (or npm run admin).
            </p>
          ) : (
            <form
              onSubmit={submit}
              noValidate
              aria-label="Assign an instructor"
              className="mt-4 flex flex-wrap items-end gap-3"
            >
              <div className="w-full empty:hidden">
                <FormError id={error.errorId} message={error.message} />
              </div>
              <SelectField
                {...error.field("courseId")}
                id={ASSIGN_COURSE_ID}
                label="Course"
                className="w-64 max-w-full"
              >
                <option value="">Choose a course</option>
                {(courses.data ?? []).map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.title}
                    {c.publishedVersion === null ? " (not published yet)" : ""}
                  </option>
                ))}
              </SelectField>
              <SelectField {...error.field("userId")} label="Instructor" className="w-64 max-w-full">
                <option value="">Choose an instructor</option>
                {(instructors.data ?? []).map((i) => (
                  <option key={i.id} value={i.id}>
                    {i.firstName} {i.lastName} ({i.email})
                  </option>
                ))}
              </SelectField>
              <Button type="submit" variant="secondary" aria-disabled={assign.isPending}>
                Assign instructor
              </Button>
            </form>
          )}
        </Card>
      )}
    </section>
  );
}
