import {
  Body,
  Button,
  Container,
  Head,
  Heading,
  Hr,
  Html,
  Link,
  Preview,
  Section,
  Text,
} from "@react-email/components";
import type { ReactNode } from "react";
import type { EmailSite } from "./email-template.ts";

const colors = { brand: "#2f6b4f", text: "#1f2933", muted: "#52606d", line: "#d9e2ec", page: "#f5f7f5" };
const font = "-apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";

export interface EmailLayoutProps {
  site: EmailSite;
  /** The inbox preview line. */
  preview: string;
  heading: string;
  children: ReactNode;
  action?: { label: string; url: string };
  /** Reminders (not receipts or security mail) carry the sender's postal address and an unsubscribe link. */
  unsubscribeUrl?: string;
}

/**
 * A link in a message: underlined and in the brand green (6.4:1 on white), where mail clients'
 * own default blue is 3.97:1 and often not underlined.
 */
export function EmailLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Link href={href} style={{ color: colors.brand, textDecoration: "underline" }}>
      {children}
    </Link>
  );
}

/** Every message's frame: the academy's name, one call to action, the support address, the legal lines. */
export function EmailLayout({ site, preview, heading, children, action, unsubscribeUrl }: EmailLayoutProps) {
  return (
    <Html lang="en">
      <Head />
      <Preview>{preview}</Preview>
      <Body
        style={{ backgroundColor: colors.page, fontFamily: font, color: colors.text, margin: 0, padding: "24px 0" }}
      >
        <Container style={{ backgroundColor: "#ffffff", maxWidth: "560px", padding: "32px", borderRadius: "8px" }}>
          <Text style={{ color: colors.brand, fontSize: "16px", fontWeight: 700, margin: "0 0 16px" }}>
            {site.name}
          </Text>
          <Heading as="h1" style={{ fontSize: "22px", lineHeight: "30px", margin: "0 0 16px" }}>
            {heading}
          </Heading>
          {children}
          {action ? (
            <Section style={{ margin: "24px 0" }}>
              <Button
                href={action.url}
                style={{
                  backgroundColor: colors.brand,
                  color: "#ffffff",
                  padding: "12px 20px",
                  borderRadius: "6px",
                  fontWeight: 600,
                  fontSize: "16px",
                }}
              >
                {action.label}
              </Button>
              <Text style={{ color: colors.muted, fontSize: "13px" }} data-skip-in-text="true">
                Or open this link: <EmailLink href={action.url}>{action.url}</EmailLink>
              </Text>
            </Section>
          ) : null}
          <Hr style={{ borderColor: colors.line, margin: "24px 0 16px" }} />
          <Text style={{ color: colors.muted, fontSize: "13px", margin: "0 0 8px" }}>
            Questions? Write to <EmailLink href={`mailto:${site.supportEmail}`}>{site.supportEmail}</EmailLink>.
          </Text>
          <Text style={{ color: colors.muted, fontSize: "13px", margin: "0 0 8px" }}>
            {site.name} · {site.postalAddress} · <EmailLink href={site.appUrl}>{site.appUrl}</EmailLink>
          </Text>
          {unsubscribeUrl ? (
            <Text style={{ color: colors.muted, fontSize: "13px", margin: 0 }}>
              You receive this because you hold a certificate from {site.name}.{" "}
              <EmailLink href={unsubscribeUrl}>Unsubscribe from certificate reminders</EmailLink> (one click, no
              sign-in). Receipts and security messages still reach you.
            </Text>
          ) : null}
        </Container>
      </Body>
    </Html>
  );
}

/** A paragraph in the message body. */
export function P({ children }: { children: ReactNode }) {
  return <Text style={{ fontSize: "16px", lineHeight: "24px", margin: "0 0 12px" }}>{children}</Text>;
}
