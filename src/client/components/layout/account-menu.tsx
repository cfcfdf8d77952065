import { DropdownMenu } from "radix-ui";
import { useNavigate } from "react-router";
import { paths } from "#client/config/paths.ts";

const item =
  "block cursor-pointer rounded-md px-3 py-2 text-sm text-slate-800 outline-none data-[highlighted]:bg-brand-50 data-[highlighted]:text-brand-900";

/** The avatar (the e-mail's first letter, spec) opens the account menu: Profile, Purchases, My Certificates, Logout. */
export function AccountMenu({ initial, email, onLogout }: { initial: string; email: string; onLogout: () => void }) {
  const navigate = useNavigate();
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger
        aria-label={`${initial}: Your account (${email})`}
        className="flex h-9 w-9 items-center justify-center rounded-full bg-brand-700 text-sm font-bold text-white data-[state=open]:ring-2 data-[state=open]:ring-brand-300"
      >
        {initial}
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
          <DropdownMenu.Separator className="my-1 h-px bg-line" />
          <DropdownMenu.Item className={item} onSelect={onLogout}>
            Logout
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
