import { queryOptions, useQuery } from "@tanstack/react-query";
import { ApiError, api } from "#client/lib/api-client.ts";
import type { Certificate, Verification } from "#shared/schemas/certificates.ts";

const enc = encodeURIComponent;

export const getCertificate = (courseId: string) => api.get<Certificate>(`/api/certificate/${enc(courseId)}`);
export const certificateQueryOptions = (courseId: string) =>
  queryOptions({ queryKey: ["/api/certificate", courseId], queryFn: () => getCertificate(courseId) });
export const useCertificate = (courseId: string) => useQuery(certificateQueryOptions(courseId));

export const getCertificates = () => api.get<Certificate[]>("/api/certificates");
export const useCertificates = () =>
  useQuery({ queryKey: ["/api/certificates"], queryFn: getCertificates, retry: false });

export const getVerification = (certificateId: string) => api.get<Verification>(`/api/verify/${enc(certificateId)}`);
export const useVerification = (certificateId: string) =>
  useQuery({ queryKey: ["/api/verify", certificateId], queryFn: () => getVerification(certificateId) });

export const reissueCertificate = (certificateId: string) =>
  api.post<Certificate>(`/api/certificates/${enc(certificateId)}/reissue`);

/** Fetches the PDF and saves it as a file. */
export async function downloadCertificatePdf(certificateId: string) {
  const response = await fetch(`/api/certificates/${enc(certificateId)}/pdf`, { credentials: "include" });
  if (!response.ok) {
    const text = await response.text();
    throw new ApiError(response.status, text, `${response.status}: ${text || response.statusText}`);
  }
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement("a");
  link.href = url;
  link.download = `certificate-${certificateId}.pdf`;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Web Share where the browser has it; otherwise the verification link goes to the clipboard. */
export async function shareCertificate(
  certificate: Pick<Certificate, "verifyUrl" | "courseTitle">,
): Promise<"shared" | "copied"> {
  if (typeof navigator.share === "function") {
    await navigator.share({ title: `Certificate: ${certificate.courseTitle}`, url: certificate.verifyUrl });
    return "shared";
  }
  await navigator.clipboard?.writeText(certificate.verifyUrl).catch(() => {});
  return "copied";
}

export function linkedInUrl(c: Certificate): string {
  const issued = new Date(c.completedAt);
  const expires = new Date(c.expiresAt);
  const params = new URLSearchParams({
    startTask: "CERTIFICATION_NAME",
    name: `${c.courseTitle} Certification`,
    organizationName: "Holistic Wellness Academy",
    issueYear: String(issued.getUTCFullYear()),
    issueMonth: String(issued.getUTCMonth() + 1),
    expirationYear: String(expires.getUTCFullYear()),
    expirationMonth: String(expires.getUTCMonth() + 1),
    certUrl: c.verifyUrl,
    certId: c.certificateId,
  });
  return `https://www.linkedin.com/profile/add?${params.toString()}`;
}
