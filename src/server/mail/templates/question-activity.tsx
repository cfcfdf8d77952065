import { Text } from "@react-email/components";
import { EmailLayout, EmailLink, P } from "../email-layout.tsx";
import { defineTemplate } from "../email-template.ts";

/** To a question's followers: a new answer, or an accepted one (decision 0056). Post text goes in as plain text only. */
export const questionActivity = defineTemplate<{
  firstName: string;
  kind: "answer" | "accepted";
  courseTitle: string;
  lessonTitle: string;
  questionTitle: string;
  /** Who answered, as shown in the course: first name and last initial. */
  authorName: string;
  excerpt: string;
  url: string;
  /** This question's unsubscribe page, and the one for every question's mail. */
  unsubscribeUrl: string;
  unsubscribeAllUrl: string;
  /** Where a mail client POSTs its one-click unsubscribe from this question. */
  oneClickUnsubscribeUrl: string;
}>({
  subject: (d) =>
    d.kind === "answer" ? `New answer: ${d.questionTitle}` : `An answer was accepted: ${d.questionTitle}`,
  body: (d, site) => (
    <EmailLayout
      site={site}
      preview={`${d.authorName} on "${d.questionTitle}"`}
      heading={
        d.kind === "answer" ? "A question you follow has a new answer" : "A question you follow has an accepted answer"
      }
      action={{ label: "Read the answer", url: d.url }}
    >
      <P>Hello {d.firstName},</P>
      <P>
        {d.kind === "answer" ? `${d.authorName} answered` : "An answer was accepted on"} "{d.questionTitle}" in{" "}
        {d.courseTitle}, lesson "{d.lessonTitle}":
      </P>
      <Text
        style={{
          fontSize: "16px",
          lineHeight: "24px",
          whiteSpace: "pre-wrap",
          borderLeft: "3px solid #d9e2ec",
          paddingLeft: "12px",
        }}
      >
        {d.excerpt}
      </Text>
      <Text style={{ color: "#52606d", fontSize: "13px" }}>
        You follow this question. <EmailLink href={d.unsubscribeUrl}>Stop e-mails about this question</EmailLink> or{" "}
        <EmailLink href={d.unsubscribeAllUrl}>stop e-mails about every question</EmailLink> (one click, no sign-in).
        Notices in the academy still appear.
      </Text>
    </EmailLayout>
  ),
  unsubscribeUrl: (d) => d.oneClickUnsubscribeUrl,
  sample: (site) => ({
    firstName: "Amara",
    kind: "answer",
    courseTitle: "Nutrition Coach Certification",
    lessonTitle: "Macronutrients",
    questionTitle: "How much protein does an older client need?",
    authorName: "Dana K.",
    excerpt: "Most guidance for adults over 65 sits a little above the general reference intake...",
    url: `${site.appUrl}/course/nutrition-coach/lesson/macros?question=sample`,
    unsubscribeUrl: `${site.appUrl}/questions/unsubscribe?token=sample.token`,
    unsubscribeAllUrl: `${site.appUrl}/questions/unsubscribe?token=sample.all`,
    oneClickUnsubscribeUrl: `${site.appUrl}/api/questions/unsubscribe?token=sample.token`,
  }),
});
