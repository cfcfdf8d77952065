import type { EmailTemplate } from "../email-template.ts";
import { accountSecurity } from "./account-security.tsx";
import { certificateReminder } from "./certificate-reminder.tsx";
import { certificateRenewed } from "./certificate-renewed.tsx";
import { existingAccountSignUp } from "./existing-account-sign-up.tsx";
import { postingSuspended } from "./posting-suspended.tsx";
import { practicalFeedback } from "./practical-feedback.tsx";
import { questionActivity } from "./question-activity.tsx";
import { receipt } from "./receipt.tsx";
import { resetPassword } from "./reset-password.tsx";
import { signInPaused } from "./sign-in-paused.tsx";
import { verifyEmail } from "./verify-email.tsx";

/**
 * Every message the academy sends, by name. Add a template: a file in this folder built with
 * defineTemplate (its data type, subject, body inside EmailLayout, sample data), then one line here.
 */
export const emailTemplates = {
  "verify-email": verifyEmail,
  "reset-password": resetPassword,
  "existing-account-sign-up": existingAccountSignUp,
  "sign-in-paused": signInPaused,
  "account-security": accountSecurity,
  "certificate-reminder": certificateReminder,
  "certificate-renewed": certificateRenewed,
  "practical-feedback": practicalFeedback,
  "question-activity": questionActivity,
  "posting-suspended": postingSuspended,
  receipt,
} satisfies Record<string, EmailTemplate<unknown>>;

export type EmailTemplateName = keyof typeof emailTemplates;
export type EmailData<Name extends EmailTemplateName> =
  (typeof emailTemplates)[Name] extends EmailTemplate<infer Data> ? Data : never;

/** The same templates, typed so that a template picked by a generic name takes that name's data. */
export const templateByName: { [Name in EmailTemplateName]: EmailTemplate<EmailData<Name>> } = emailTemplates;
export const templateNames = Object.keys(templateByName).filter(
  (name): name is EmailTemplateName => name in templateByName,
);
