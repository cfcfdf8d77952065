import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiError, api, dataOf } from "#client/lib/api-client.ts";
import type { MutationConfig } from "#client/lib/query-client.ts";
import { queryKeys } from "#client/lib/query-keys.ts";
import { BRAND_NAME } from "#shared/constants.ts";
import type { Certificate } from "#shared/schemas/certificates.ts";

const enc = encodeURIComponent;

export const getCertificate = (courseId: string) =>
  dataOf(api.GET("/api/certificate/{courseId}", { params: { path: { courseId } } }));
export const certificateQueryOptions = (courseId: string) =>
  queryOptions({ queryKey: queryKeys.certificates.course(courseId), queryFn: () => getCertificate(courseId) });
export const useCertificate = (courseId: string) => useQuery(certificateQueryOptions(courseId));

export const getCertificates = () => dataOf(api.GET("/api/certificates"));
export const certificatesQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.certificates.all(), queryFn: getCertificates, retry: false });
export const useCertificates = () => useQuery(certificatesQueryOptions());

export const getVerification = (certificateId: string) =>
  dataOf(api.GET("/api/verify/{certificateId}", { params: { path: { certificateId } } }));
export const useVerification = (certificateId: string) =>
  useQuery({
    queryKey: queryKeys.certificates.verification(certificateId),
    queryFn: () => getVerification(certificateId),
  });

export const getCredentialCheck = (certificateId: string) =>
  dataOf(api.GET("/api/verify/{certificateId}/credential", { params: { path: { certificateId } } }));
export const useCredentialCheck = (certificateId: string) =>
  useQuery({
    queryKey: queryKeys.certificates.credentialCheck(certificateId),
    queryFn: () => getCredentialCheck(certificateId),
    retry: false,
  });

/** Reissues a certificate with the learner's current name; the certificate's reads are refreshed. */
export function useReissueCertificate(courseId: string, config: MutationConfig<Certificate, string> = {}) {
  const queryClient = useQueryClient();
  const { onSuccess, ...rest } = config;
  return useMutation({
    ...rest,
    mutationFn: (certificateId: string) =>
      dataOf(api.POST("/api/certificates/{certificateId}/reissue", { params: { path: { certificateId } } })),
    onSuccess: async (...args) => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.certificates.course(courseId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.certificates.all() }),
      ]);
      await onSuccess?.(...args);
    },
  });
}

/** Fetches a file of the holder's and saves it under the given name. */
async function downloadFile(source: string, filename: string) {
  const response = await fetch(source, { credentials: "include" });
  if (!response.ok) {
    const text = await response.text();
    throw new ApiError(response.status, text, `${response.status}: ${text || response.statusText}`);
  }
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export const downloadCertificatePdf = (certificateId: string) =>
  downloadFile(`/api/certificates/${enc(certificateId)}/pdf`, `certificate-${certificateId}.pdf`);

/** The signed Open Badges 3.0 credential, as JSON a wallet can import. */
export const downloadCredential = (certificateId: string) =>
  downloadFile(`/api/certificates/${enc(certificateId)}/credential`, `credential-${certificateId}.json`);

/**
 * Web Share where the browser has it; otherwise the verification link goes to the clipboard.
 * 'failed' when neither worked (no clipboard, or the browser refused), so nothing claims a copy.
 */
export async function shareCertificate(
  certificate: Pick<Certificate, "verifyUrl" | "courseTitle">,
): Promise<"shared" | "copied" | "failed"> {
  if (typeof navigator.share === "function") {
    await navigator.share({ title: `Certificate: ${certificate.courseTitle}`, url: certificate.verifyUrl });
    return "shared";
  }
  if (!navigator.clipboard) return "failed";
  try {
    await navigator.clipboard.writeText(certificate.verifyUrl);
    return "copied";
  } catch {
    return "failed";
  }
}

export function linkedInUrl(c: Certificate): string {
  const issued = new Date(c.completedAt);
  const expires = new Date(c.expiresAt);
  const params = new URLSearchParams({
    startTask: "CERTIFICATION_NAME",
    name: `${c.courseTitle}: Certificate of Completion`,
    organizationName: BRAND_NAME,
    issueYear: String(issued.getUTCFullYear()),
    issueMonth: String(issued.getUTCMonth() + 1),
    expirationYear: String(expires.getUTCFullYear()),
    expirationMonth: String(expires.getUTCMonth() + 1),
    certUrl: c.verifyUrl,
    certId: c.certificateId,
  });
  return `https://www.linkedin.com/profile/add?${params.toString()}`;
}
