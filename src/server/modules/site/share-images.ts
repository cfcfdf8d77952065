import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { certificateIdParamsSchema } from "#shared/schemas/certificates.ts";
import { binaryFileSchema, shareImageQuerySchema } from "#shared/schemas/common.ts";
import { courseParamsSchema } from "#shared/schemas/courses.ts";
import { shareImagePaths, shareImagePatterns } from "#shared/share-image-routes.ts";
import { notFound } from "../../errors.ts";
import type { Catalogue, CatalogueCourse } from "../courses/course-catalogue.ts";
import type { PublicCertificate } from "./page-meta.ts";
import { academyCard, certificateCard, courseCard, type ShareCard, shareCardKey } from "./share-cards.ts";

export interface ShareImageSources {
  appUrl: string;
  catalogue: () => Promise<Catalogue>;
  /** The certificate as its verify page shows it; throws 404 when no certificate has this ID. */
  certificate: (certificateId: string) => Promise<PublicCertificate>;
}

/** A page's share image: its address (with the version it shows) and the words for its `alt`. */
export interface ShareImage {
  url: string;
  alt: string;
}

export const academyImage = (appUrl: string): ShareImage => {
  const card = academyCard(appUrl);
  return { url: `${appUrl}${shareImagePaths.academy(shareCardKey(card))}`, alt: `${card.eyebrow}: ${card.title}` };
};

export const courseImage = (appUrl: string, course: CatalogueCourse): ShareImage => ({
  url: `${appUrl}${shareImagePaths.course(course.card.id, shareCardKey(courseCard(appUrl, course), course.version))}`,
  alt: `${course.card.title}, a course of the academy with a Certificate of Completion`,
});

export const certificateImage = (appUrl: string, certificateId: string, certificate: PublicCertificate): ShareImage => {
  const card = certificateCard(appUrl, certificateId, certificate);
  return {
    url: `${appUrl}${shareImagePaths.certificate(certificateId, shareCardKey(card))}`,
    alt: `Certificate of Completion: ${certificate.holderName}, ${certificate.courseTitle}. ${card.badge?.text ?? ""}.`,
  };
};

/** Drawn pictures by card key; a few dozen (about 100-250 kB each) per process. */
const DRAWN_LIMIT = 48;

/**
 * The share images of decision 0067: public, one per content version or certificate state. An
 * address whose `?v=` is the current one is kept for a year (a new state gets a new address);
 * any other asks again each time, answered 304 while the ETag still holds.
 */
export function shareImageRoutes(sources: ShareImageSources): FastifyPluginAsyncZod {
  const drawn = new Map<string, Promise<Buffer>>();
  const draw = (key: string, card: ShareCard) => {
    let png = drawn.get(key);
    if (png) {
      drawn.delete(key);
    } else {
      // The renderer (satori, resvg's native binding, the fonts) loads with the first picture.
      png = import("./share-image-render.tsx").then(({ renderShareImage }) => renderShareImage(card));
      png.catch(() => drawn.delete(key));
    }
    drawn.set(key, png);
    for (const oldest of drawn.keys()) {
      if (drawn.size <= DRAWN_LIMIT) break;
      drawn.delete(oldest);
    }
    return png;
  };
  const send = async (
    request: FastifyRequest<{ Querystring: { v?: string | undefined } }>,
    reply: FastifyReply,
    kind: string,
    card: ShareCard,
    key: string,
  ) => {
    const etag = `"${key}"`;
    reply
      .header("etag", etag)
      .header(
        "cache-control",
        request.query.v === key ? "public, max-age=31536000, immutable" : "public, max-age=0, must-revalidate",
      );
    if (request.headers["if-none-match"] === etag) return reply.status(304).send();
    return reply.type("image/png").send(await draw(`${kind}:${key}`, card));
  };
  const png = { 200: { content: { "image/png": { schema: binaryFileSchema } } } };
  const catalogueCourse = async (courseId: string) => {
    const course = (await sources.catalogue()).byId.get(courseId);
    if (!course) throw notFound("Course not found.");
    return course;
  };

  return async (app) => {
    app.get(
      shareImagePatterns.academy,
      { schema: { querystring: shareImageQuerySchema, response: png } },
      async (request, reply) => {
        const card = academyCard(sources.appUrl);
        return send(request, reply, "academy", card, shareCardKey(card));
      },
    );

    app.get(
      shareImagePatterns.course,
      { schema: { params: courseParamsSchema, querystring: shareImageQuerySchema, response: png } },
      async (request, reply) => {
        const course = await catalogueCourse(request.params.courseId);
        const card = courseCard(sources.appUrl, course);
        return send(request, reply, `course:${course.card.id}`, card, shareCardKey(card, course.version));
      },
    );

    // Limited like the verify page it belongs to, so IDs cannot be scanned through it.
    app.get(
      shareImagePatterns.certificate,
      {
        schema: { params: certificateIdParamsSchema, querystring: shareImageQuerySchema, response: png },
        config: { rateLimit: { max: 60, timeWindow: "1 minute" } },
      },
      async (request, reply) => {
        const { certificateId } = request.params;
        const certificate = await sources.certificate(certificateId);
        const card = certificateCard(sources.appUrl, certificateId, certificate);
        return send(request, reply, `certificate:${certificateId}`, card, shareCardKey(card));
      },
    );
  };
}
