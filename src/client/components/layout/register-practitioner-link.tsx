import { Link } from "react-router";
import { paths } from "#client/config/paths.ts";
import { ExternalLink } from "./external-link.tsx";

/**
 * "Register as Practitioner" is always offered: to the practitioner app when one is configured,
 * otherwise to the page that explains registration, what is verified, and the academy's directory.
 */
export function RegisterAsPractitionerLink({ appUrl, className }: { appUrl: string | null; className: string }) {
  return appUrl ? (
    <ExternalLink href={appUrl} className={className}>
      Register as Practitioner
    </ExternalLink>
  ) : (
    <Link to={paths.practitionerRegistration} className={className}>
      Register as Practitioner
    </Link>
  );
}
