import { Link } from "react-router";
import { paths } from "#client/config/paths.ts";
import { useCurrentUser } from "#client/lib/session.ts";

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
