import { createHash, randomBytes } from "node:crypto";
import { BRAND_NAME, PASS_MARK } from "#shared/constants.ts";
import type { Config } from "../../config.ts";
import type { CatalogueCourse } from "../courses/course-catalogue.ts";
import { OPEN_BADGES_CONTEXT, VC_V2_CONTEXT } from "./json-ld-contexts.ts";

/** Date-times without milliseconds, as the credential data model's examples write them. */
const dateTime = (iso: string) => `${iso.slice(0, 19)}Z`;

/** OB 3.0 IdentityObject: sha256 of the e-mail followed by a random salt, so the address is not readable. */
export function hashedEmailIdentifier(email: string, salt = randomBytes(16).toString("base64url")) {
  const hash = createHash("sha256")
    .update(email.trim().toLowerCase() + salt)
    .digest("hex");
  return { type: "IdentityObject", identityHash: `sha256$${hash}`, identityType: "emailAddress", hashed: true, salt };
}

const sentence = (text: string | null) => (!text ? "" : text.endsWith(".") ? text : `${text}.`);

/** What a learner has to do for the certificate, named lesson by lesson. */
export function criteriaNarrative(course: CatalogueCourse): string {
  const lessons = course.lessons.map((l) => l.title).join("; ");
  const quizzes = course.modules.filter((m) => m.quiz).map((m) => m.title);
  const parts = [`Complete all ${course.lessons.length} lessons: ${lessons}.`];
  if (quizzes.length) {
    parts.push(`Pass the quiz of each module with at least ${PASS_MARK}%: ${quizzes.join("; ")}.`);
  }
  // Courses with a cumulative final exam carry it in the catalogue.
  const exam = (course as { exam?: { title: string } | null }).exam;
  if (exam) parts.push(`Pass the final exam: ${exam.title}.`);
  if (course.practical?.requiredForCertificate)
    parts.push(
      `Pass the practical skills assessment, scored by an assessor against its rubric: ${course.practical.title}.`,
    );
  return parts.join(" ");
}

/** The version's learning outcomes, as one sentence of the criteria. */
function outcomesOf(course: CatalogueCourse): string {
  if (course.learningOutcomes.length === 0) return "";
  return `Learning outcomes: ${course.learningOutcomes.map((o) => o.replace(/\.$/, "")).join("; ")}.`;
}

export interface OpenBadgeInput {
  /** urn:uuid:...; a renewal gives the certificate a new one. */
  credentialId: string;
  certificateId: string;
  holderName: string;
  email: string;
  /** Start of the current validity period: completion, or the latest renewal or extension. */
  validFrom: string;
  expiresAt: string;
  /** Approved continuing-education hours (the achievement's creditsAvailable, the holder's creditsEarned); null: none. */
  ceHours: number | null;
  /** The certificate's words on hours (decision 0052), at the end of the criteria's narrative. */
  creditStatement: string | null;
  /** The course version the certificate was earned on: its content, outcomes and hours. */
  course: CatalogueCourse;
  /** "Course version 2, published 3 December 2026". */
  versionLine: string;
  issuerDid: string;
  credentialStatus: Record<string, unknown>;
}

/** The unsigned Open Badges 3.0 OpenBadgeCredential (Verifiable Credentials Data Model 2.0) of a certificate. */
export function openBadgeCredential(config: Pick<Config, "appUrl">, input: OpenBadgeInput) {
  const { course } = input;
  const credits = input.ceHours ?? undefined;
  return {
    "@context": [VC_V2_CONTEXT, OPEN_BADGES_CONTEXT],
    id: input.credentialId,
    type: ["VerifiableCredential", "OpenBadgeCredential"],
    name: `${course.card.title} certificate`,
    issuer: { id: input.issuerDid, type: ["Profile"], name: BRAND_NAME, url: config.appUrl },
    validFrom: dateTime(input.validFrom),
    validUntil: dateTime(input.expiresAt),
    credentialSubject: {
      type: ["AchievementSubject"],
      name: input.holderName,
      identifier: [hashedEmailIdentifier(input.email)],
      ...(credits !== undefined ? { creditsEarned: credits } : {}),
      achievement: {
        id: `${config.appUrl}/course/${course.card.id}`,
        type: ["Achievement"],
        achievementType: "Certificate",
        name: course.card.title,
        description: course.card.description,
        // The course version the certificate was earned on (decision 0055), with that version's outcomes.
        version: String(course.version),
        criteria: {
          narrative: [
            sentence(input.versionLine),
            criteriaNarrative(course),
            outcomesOf(course),
            sentence(input.creditStatement),
          ]
            .join(" ")
            .replace(/\s+/g, " ")
            .trim(),
        },
        ...(credits !== undefined ? { creditsAvailable: credits } : {}),
      },
    },
    evidence: [
      {
        id: `${config.appUrl}/verify/${input.certificateId}`,
        type: ["Evidence"],
        name: `Certificate ${input.certificateId}`,
      },
    ],
    credentialStatus: input.credentialStatus,
  };
}
