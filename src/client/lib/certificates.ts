import { api } from "#client/lib/api-client.ts";
import type { Certificate } from "#shared/schemas/certificates.ts";

/** Issues (or returns) the caller's certificate for a completed course; the course page asks for it. */
export const issueCertificate = (courseId: string) => api.post<Certificate>("/api/certificate", { courseId });
