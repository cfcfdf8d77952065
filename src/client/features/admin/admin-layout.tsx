import { ShieldAlert } from "lucide-react";
import type { ReactNode } from "react";
import { Link, NavLink } from "react-router";
import { buttonClasses } from "#client/components/ui/button.tsx";
import { PageContainer } from "#client/components/ui/misc.tsx";
import { paths } from "#client/config/paths.ts";
import { useCurrentUser } from "#client/lib/session.ts";
import { useDocumentMeta } from "#client/lib/use-document-meta.ts";
import { routePatterns } from "#shared/client-routes.ts";
import { BRAND_NAME } from "#shared/constants.ts";

const SECTIONS = [
  { to: paths.adminAnalytics, label: "Analytics" },
  { to: paths.adminEnrollments, label: "Enrollments" },
  { to: "/admin/coupons", label: "Coupons" },
  { to: "/admin/orders", label: "Orders" },
  { to: "/admin/learners", label: "Learners" },
  { to: paths.adminCertificates, label: "Certificates" },
  { to: "/admin/item-statistics", label: "Item statistics" },
  { to: routePatterns.adminAgreement, label: "Assessor agreement" },
  { to: routePatterns.questionsModeration, label: "Moderation" },
  { to: "/admin/audit", label: "Audit log" },
  { to: "/admin/outbox", label: "Outbox" },
];

const FORBIDDEN_TITLE = `403 Access Denied | ${BRAND_NAME}`;

export function ForbiddenPage() {
  useDocumentMeta({ title: FORBIDDEN_TITLE, description: "This page is for the academy's administrators only." });
  return (
    <PageContainer className="max-w-xl py-20 text-center">
      <ShieldAlert className="mx-auto text-red-700" size={48} aria-hidden="true" />
      <h1 className="mt-3 text-3xl font-bold">403 Access Denied</h1>
      <p className="mt-3 text-muted">This page is for academy administrators only.</p>
      <Link to={paths.home} className={buttonClasses("primary", "md", "mt-6")}>
        Back to Courses
      </Link>
    </PageContainer>
  );
}

/** Admin pages: a 403 page for anyone who is not an admin (the server checks too). */
export function AdminLayout({ title, children }: { title: string; children: ReactNode }) {
  const { user } = useCurrentUser();
  const isAdmin = user?.role === "admin";
  // The layout's effect runs after the 403 page's, so it must not name the admin page to others.
  useDocumentMeta({
    title: isAdmin ? `${title} | Admin | ${BRAND_NAME}` : FORBIDDEN_TITLE,
    description: isAdmin
      ? `${title}: ${BRAND_NAME} administration.`
      : "This page is for the academy's administrators only.",
  });
  if (!isAdmin) return <ForbiddenPage />;
  return (
    <PageContainer>
      <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">Admin</p>
      <h1 className="mt-1 font-serif text-3xl font-bold">{title}</h1>
      <nav aria-label="Admin sections" className="mt-5 flex flex-wrap gap-2 border-b border-line pb-3">
        {SECTIONS.map((s) => (
          <NavLink
            key={s.to}
            to={s.to}
            className={({ isActive }) =>
              `rounded-md px-3 py-2 text-sm font-medium ${isActive ? "bg-brand-700 text-white" : "text-slate-700 hover:bg-slate-100"}`
            }
          >
            {s.label}
          </NavLink>
        ))}
      </nav>
      <div className="mt-6">{children}</div>
    </PageContainer>
  );
}
