import { Link } from "react-router";
import { buttonClasses } from "#client/components/ui/button.tsx";
import { PageContainer } from "#client/components/ui/misc.tsx";
import { paths } from "#client/config/paths.ts";
import { useCurrentUser } from "#client/lib/session.ts";
import { useDocumentMeta } from "#client/lib/use-document-meta.ts";
import { BRAND_NAME } from "#shared/constants.ts";

/**
 * Staff whose role waits for a second factor (docs/decisions/0054): every page says so first, with
 * the way to set one up; the server gives them a learner's access until then.
 */
export function SecondFactorNotice() {
  const { user } = useCurrentUser();
  if (!user?.roleOnHold) return null;
  return (
    <div role="status" className="border-b border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950">
      <p className="mx-auto max-w-5xl">
        Your {user.roleOnHold} role needs two-factor sign-in or a passkey before you can use it.{" "}
        <Link to={`${paths.profile}#security`} className="font-semibold underline">
          Set one up on your profile
        </Link>
        .
      </p>
    </div>
  );
}

/**
 * What a staff area (admin, review, studio) shows staff whose role waits for a second factor: the
 * set-up before anything else. The server refuses the area's routes to them either way.
 */
export function SecondFactorFirstPage() {
  const { user } = useCurrentUser();
  const role = user?.roleOnHold ?? "staff";
  useDocumentMeta({
    title: `Set up a second factor first | ${BRAND_NAME}`,
    description: "Staff roles need two-factor sign-in or a passkey.",
  });
  return (
    <PageContainer className="max-w-2xl">
      <h1 className="font-serif text-3xl font-bold">Set up a second factor first</h1>
      <p className="mt-3 text-slate-700">
        Your {role} role opens once your account has two-factor sign-in with an authenticator app or a passkey. Until
        then you have a learner's access: one phished password must not be enough to act as {role}.
      </p>
      <Link to={`${paths.profile}#security`} className={buttonClasses("primary", "md", "mt-5")}>
        Set up two-factor sign-in or a passkey
      </Link>
    </PageContainer>
  );
}
