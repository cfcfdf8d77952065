import { z } from "zod";
import { staffRoleSchema } from "./auth.ts";

/**
 * Course staff (docs/decisions/0053): an admin assigns an instructor or an assessor to a course; they
 * work only on the courses they are assigned to.
 */
export const courseStaffInputSchema = z.strictObject({
  userId: z.string().min(1).max(100),
  courseId: z.string().min(1, "Choose a course.").max(100),
  role: staffRoleSchema,
});
export type CourseStaffInput = z.input<typeof courseStaffInputSchema>;

export const courseStaffParamsSchema = z.strictObject({
  userId: z.string().min(1).max(100),
  courseId: z.string().min(1).max(100),
  role: staffRoleSchema,
});

export const courseStaffQuerySchema = z.strictObject({
  courseId: z.string().min(1).max(100).optional(),
  userId: z.string().min(1).max(100).optional(),
});

export const courseStaffSchema = z.object({
  userId: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  courseId: z.string(),
  courseTitle: z.string(),
  role: staffRoleSchema,
  /** The e-mail of the admin who assigned them. */
  assignedBy: z.string(),
  createdAt: z.string(),
  /** An assessor's recorded qualifications (docs/decisions/0053); null for an instructor or none recorded. */
  qualifications: z
    .object({
      credential: z.string(),
      awardingBody: z.string(),
      credentialNumber: z.string(),
      coachingTraining: z.string().nullable(),
    })
    .nullable(),
});
export type CourseStaff = z.infer<typeof courseStaffSchema>;
export const courseStaffListSchema = z.object({ items: z.array(courseStaffSchema) });
export const courseStaffRemovedSchema = z.object({ removed: z.boolean() });
