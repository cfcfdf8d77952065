import { Link } from "react-router";
import { paths } from "#client/config/paths.ts";
import { ExternalLink } from "./external-link.tsx";

/**
 * "Register as Practitioner" is always offered: to the practitioner app when one is configured,
 * otherwise to the academy's own practitioner directory, where holders list themselves.
 */
export function RegisterAsPractitionerLink({ appUrl, className }: { appUrl: string | null; className: string }) {
  return appUrl ? (
    <ExternalLink href={appUrl} className={className}>
      Register as Practitioner
    </ExternalLink>
  ) : (
    <Link to={paths.practitioners} className={className}>
      Register as Practitioner
    </Link>
  );
}
