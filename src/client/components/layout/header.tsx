import { Menu, X } from "lucide-react";
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { Link, NavLink, useLocation } from "react-router";
import { paths } from "#client/config/paths.ts";
import { signOut, useCurrentUser } from "#client/lib/session.ts";
import { useSiteConfig } from "#client/lib/site-config.ts";
import { BRAND_NAME } from "#shared/constants.ts";
import { ExternalLink } from "./external-link.tsx";

// Only signed-in people have the account menu: visitors' pages do not load its code (decision 0032).
const AccountMenu = lazy(() => import("./account-menu.tsx").then((module) => ({ default: module.AccountMenu })));
const avatarClass = "flex h-9 w-9 items-center justify-center rounded-full bg-brand-700 text-sm font-bold text-white";

const navClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-3 py-2 text-sm font-medium ${isActive ? "bg-brand-50 text-brand-800" : "text-slate-700 hover:bg-slate-100"}`;
const plainClass = "rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100";

export function Logo() {
  return (
    <Link
      to={paths.home}
      className="flex min-w-0 items-center gap-2 font-serif text-lg leading-tight font-bold text-brand-900"
    >
      <img src="/favicon.svg" alt="" width={32} height={32} className="shrink-0" />
      <span>{BRAND_NAME}</span>
    </Link>
  );
}

export function Header() {
  const { user } = useCurrentUser();
  const site = useSiteConfig();
  const [open, setOpen] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const location = useLocation();
  const [lastPath, setLastPath] = useState(location.pathname);
  if (lastPath !== location.pathname) {
    setLastPath(location.pathname);
    setOpen(false);
  }

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setOpen(false);
      toggleRef.current?.focus();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open]);

  const logout = async () => {
    await signOut();
    window.location.assign(paths.home);
  };

  const links = (
    <>
      {user ? (
        <>
          <NavLink to={paths.home} end className={navClass}>
            Courses
          </NavLink>
          <NavLink to={paths.myLearning} className={navClass}>
            My Learning
          </NavLink>
          <NavLink to={paths.certificates} className={navClass}>
            Certificates
          </NavLink>
          {(user.role === "admin" || user.role === "assessor") && (
            <NavLink to={paths.reviewQueue} className={navClass}>
              Reviews
            </NavLink>
          )}
          {(user.role === "admin" || user.role === "instructor") && (
            <NavLink to={paths.studio} className={navClass}>
              Studio
            </NavLink>
          )}
          {user.role === "admin" && (
            <NavLink to={paths.adminAnalytics} className={navClass}>
              Admin
            </NavLink>
          )}
        </>
      ) : null}
      {site.storeUrl && (
        <ExternalLink href={site.storeUrl} className={plainClass}>
          Store
        </ExternalLink>
      )}
      {site.practitionerAppUrl && (
        <ExternalLink href={site.practitionerAppUrl} className={plainClass}>
          Practitioner App
        </ExternalLink>
      )}
      {!user &&
        (site.marketplaceUrl ? (
          <ExternalLink href={site.marketplaceUrl} className={plainClass}>
            Get Certified
          </ExternalLink>
        ) : (
          <Link to={`${paths.login}?tab=signup`} className={plainClass}>
            Get Certified
          </Link>
        ))}
    </>
  );

  const initial = (user?.email?.[0] ?? "U").toUpperCase();
  const account = user ? (
    <div className="flex items-center gap-3">
      <Suspense
        fallback={
          <span aria-hidden="true" className={avatarClass}>
            {initial}
          </span>
        }
      >
        <AccountMenu initial={initial} email={user.email} onLogout={() => void logout()} />
      </Suspense>
      <button type="button" onClick={logout} className={plainClass}>
        Logout
      </button>
    </div>
  ) : (
    <Link
      to={paths.login}
      className="btn-primary rounded-lg bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800"
    >
      Sign In
    </Link>
  );

  return (
    // Sticky from 20rem (320 px at the default text size) up: on a phone with 200% text it would cover a fifth of the screen.
    <header className="top-0 z-40 print:hidden border-b border-line bg-white/95 backdrop-blur min-[20rem]:sticky">
      <div className="mx-auto flex min-h-16 max-w-6xl items-center justify-between gap-4 px-4 py-2 sm:px-6 lg:px-8">
        <Logo />
        <nav aria-label="Main" className="hidden items-center gap-1 lg:flex">
          {links}
        </nav>
        <div className="hidden lg:block">{account}</div>
        <button
          ref={toggleRef}
          type="button"
          className="shrink-0 rounded-md p-2 text-slate-700 hover:bg-slate-100 lg:hidden"
          aria-expanded={open}
          aria-controls="mobile-menu"
          aria-label={open ? "Close menu" : "Open menu"}
          onClick={() => setOpen((v) => !v)}
        >
          {open ? <X aria-hidden="true" /> : <Menu aria-hidden="true" />}
        </button>
      </div>
      {open && (
        <div id="mobile-menu" className="border-t border-line px-4 pb-4 lg:hidden">
          <nav aria-label="Mobile" className="flex flex-col gap-1 pt-2">
            {links}
          </nav>
          <div className="mt-3 border-t border-line pt-3">{account}</div>
        </div>
      )}
    </header>
  );
}
