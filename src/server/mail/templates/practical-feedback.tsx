import { Text } from "@react-email/components";
import { EmailLayout, P } from "../email-layout.tsx";
import { defineTemplate } from "../email-template.ts";

export const practicalFeedback = defineTemplate<{
  firstName: string;
  courseTitle: string;
  practicalTitle: string;
  decision: "pass" | "resubmit";
  feedback: string;
  /** Each criterion's level and comment (absent in mail queued before they were sent). */
  criteria?: { title: string; level: string; comment: string }[];
  url: string;
}>({
  subject: (d) =>
    d.decision === "pass"
      ? `Practical assessment passed: ${d.courseTitle}`
      : `Please resubmit your practical: ${d.courseTitle}`,
  body: (d, site) => (
    <EmailLayout
      site={site}
      preview={
        d.decision === "pass" ? "You passed, with your assessor's feedback." : "Your assessor asks for a revision."
      }
      heading={d.decision === "pass" ? "You passed the practical assessment" : "Please revise and resubmit"}
      action={{ label: "See scores and comments", url: d.url }}
    >
      <P>Hello {d.firstName},</P>
      <P>
        {d.decision === "pass"
          ? `You passed the practical assessment "${d.practicalTitle}" of ${d.courseTitle}.`
          : `Your assessor asks you to revise and resubmit the practical assessment "${d.practicalTitle}" of ${d.courseTitle}.`}
      </P>
      <P>Your assessor's feedback:</P>
      <Text
        style={{
          fontSize: "16px",
          lineHeight: "24px",
          whiteSpace: "pre-wrap",
          borderLeft: "3px solid #d9e2ec",
          paddingLeft: "12px",
        }}
      >
        {d.feedback}
      </Text>
      {d.criteria && d.criteria.length > 0 ? (
        <>
          <P>Each criterion:</P>
          {d.criteria.map((c) => (
            <Text key={c.title} style={{ fontSize: "16px", lineHeight: "24px", margin: "0 0 12px" }}>
              <strong>
                {c.title}: {c.level}
              </strong>
              {c.comment ? ` ${c.comment}` : ""}
            </Text>
          ))}
          <P>Your scores and the rubric are on the course's practical page.</P>
        </>
      ) : (
        <P>The scores and comments for each criterion are on the course's practical page.</P>
      )}
    </EmailLayout>
  ),
  sample: (site) => ({
    firstName: "Amara",
    courseTitle: "Nutrition Coach Certification",
    practicalTitle: "Client intake and three-day plan",
    decision: "resubmit",
    feedback: "Your intake is thorough. The plan needs a clear referral point for the client's reflux symptoms.",
    criteria: [
      { title: "Intake and history", level: "Strong", comment: "Every area covered, in the client's words." },
      { title: "Scope and referral", level: "Developing", comment: "Name when the reflux goes to a doctor." },
    ],
    url: `${site.appUrl}/course/nutrition-coach/practical`,
  }),
});
