/**
 * The share images (decision 0067): the pictures a shared link of a public page shows, made on the
 * server. The server registers these patterns and the page tags point at them; `?v=` names the
 * content version or certificate state the picture was made for.
 */
export const shareImagePatterns = {
  academy: "/api/share-images/academy",
  course: "/api/share-images/courses/:courseId",
  certificate: "/api/share-images/certificates/:certificateId",
} as const;

/** Open Graph's large picture: 1.91:1, as LinkedIn, WhatsApp, X and Facebook draw it. */
export const SHARE_IMAGE_SIZE = { width: 1200, height: 630 } as const;

const withVersion = (path: string, version: string) => `${path}?v=${encodeURIComponent(version)}`;

export const shareImagePaths = {
  academy: (version: string) => withVersion(shareImagePatterns.academy, version),
  course: (courseId: string, version: string) =>
    withVersion(shareImagePatterns.course.replace(":courseId", encodeURIComponent(courseId)), version),
  certificate: (certificateId: string, version: string) =>
    withVersion(shareImagePatterns.certificate.replace(":certificateId", encodeURIComponent(certificateId)), version),
};
