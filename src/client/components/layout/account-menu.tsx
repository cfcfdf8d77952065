import { useQuery } from "@tanstack/react-query";
import { DropdownMenu } from "radix-ui";
import { useNavigate } from "react-router";
import { paths } from "#client/config/paths.ts";
import { api, dataOf } from "#client/lib/api-client.ts";
import { queryKeys } from "#client/lib/query-keys.ts";
import { useCurrentUser } from "#client/lib/session.ts";

const item =
  "block cursor-pointer rounded-md px-3 py-2 text-sm text-slate-800 outline-none data-[highlighted]:bg-brand-50 data-[highlighted]:text-brand-900";

const noticesOf = (n: number) => `${n} new notice${n === 1 ? "" : "s"}`;

/**
 * The avatar (the e-mail's first letter, spec) opens the account menu: Profile, Purchases, My Certificates,
 * What's new, for staff Unanswered questions, Logout. A count on it says how many notices are new (decision 0056), said once
 * when it changes.
 */
export function AccountMenu({ initial, email, onLogout }: { initial: string; email: string; onLogout: () => void }) {
  const navigate = useNavigate();
  // The What's new page reads the same query; looked at again every minute and on the window's focus.
  const unread =
    useQuery({
      queryKey: queryKeys.notifications(),
      queryFn: () => dataOf(api.GET("/api/notifications")),
      refetchInterval: 60_000,
    }).data?.unread ?? 0;
  const staff = (useCurrentUser().user?.role ?? "learner") !== "learner";
  return (
    <DropdownMenu.Root modal={false}>
      <p role="status" className="sr-only" data-testid="notice-count-status">
        {unread > 0 ? noticesOf(unread) : ""}
      </p>
      <DropdownMenu.Trigger
        aria-label={`${initial}: Your account (${email})${unread > 0 ? `, ${noticesOf(unread)}` : ""}`}
        className="relative flex h-9 w-9 items-center justify-center rounded-full bg-brand-700 text-sm font-bold text-white data-[state=open]:ring-2 data-[state=open]:ring-brand-300"
      >
        {initial}
        {unread > 0 ? (
          <span
            aria-hidden="true"
            data-testid="notice-count"
            className="absolute -top-1.5 -right-1.5 flex h-5 min-w-5 items-center justify-center rounded-full border-2 border-white bg-red-700 px-1 text-xs leading-none font-bold text-white forced-colors:border-[CanvasText]"
          >
            {unread > 99 ? "99+" : unread}
          </span>
        ) : null}
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={6}
          className="z-50 min-w-48 rounded-xl border border-line bg-white p-1 shadow-lg"
        >
          <DropdownMenu.Label className="truncate px-3 py-2 text-xs text-muted">{email}</DropdownMenu.Label>
          <DropdownMenu.Item className={item} onSelect={() => navigate(paths.profile)}>
            Profile
          </DropdownMenu.Item>
          <DropdownMenu.Item className={item} onSelect={() => navigate(paths.purchases)}>
            Purchases
          </DropdownMenu.Item>
          <DropdownMenu.Item className={item} onSelect={() => navigate(paths.certificates)}>
            My Certificates
          </DropdownMenu.Item>
          <DropdownMenu.Item className={item} onSelect={() => navigate("/questions/notices")}>
            What's new{unread > 0 ? ` (${unread})` : ""}
          </DropdownMenu.Item>
          {staff ? (
            <DropdownMenu.Item className={item} onSelect={() => navigate("/questions/unanswered")}>
              Unanswered questions
            </DropdownMenu.Item>
          ) : null}
          <DropdownMenu.Separator className="my-1 h-px bg-line" />
          <DropdownMenu.Item className={item} onSelect={onLogout}>
            Logout
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
