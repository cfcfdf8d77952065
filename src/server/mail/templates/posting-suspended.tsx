import { Text } from "@react-email/components";
import { EmailLayout, P } from "../email-layout.tsx";
import { defineTemplate } from "../email-template.ts";

/** To a learner an admin suspended from posting questions and answers, or allowed to post again. */
export const postingSuspended = defineTemplate<{ firstName: string; suspended: boolean; reason: string }>({
  subject: (d) => (d.suspended ? "You can no longer post questions and answers" : "You can post questions again"),
  body: (d, site) => (
    <EmailLayout
      site={site}
      preview={d.suspended ? "An admin suspended your posting." : "An admin lifted your suspension."}
      heading={d.suspended ? "Your posting is suspended" : "You can post again"}
    >
      <P>Hello {d.firstName},</P>
      <P>
        {d.suspended
          ? "An admin suspended you from posting questions and answers on lessons. You can still read them and study as before. The reason given:"
          : "An admin lifted your suspension: you can ask and answer questions on lessons again. The note given:"}
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
        {d.reason}
      </Text>
      <P>If you think this is a mistake, reply to the support address below.</P>
    </EmailLayout>
  ),
  sample: () => ({ firstName: "Amara", suspended: true, reason: "Repeated advertising links in answers." }),
});
