import { lazy, type ReactNode, Suspense, useEffect, useState } from "react";
import { Navigate, Outlet, Route, Routes, useLocation } from "react-router";
import { Footer } from "#client/components/layout/footer.tsx";
import { Header } from "#client/components/layout/header.tsx";
import { RouteFocus } from "#client/components/layout/route-focus.tsx";
import { Spinner } from "#client/components/ui/misc.tsx";
import { paths } from "#client/config/paths.ts";
import { useCurrentUser } from "#client/lib/session.ts";

const LandingPage = lazy(() => import("#client/features/landing/landing-page.tsx"));
const LoginPage = lazy(() => import("#client/features/auth/login-page.tsx"));
const ResetPasswordPage = lazy(() => import("#client/features/auth/reset-password-page.tsx"));
const TermsPage = lazy(() => import("#client/features/legal/terms-page.tsx"));
const PrivacyPage = lazy(() => import("#client/features/legal/privacy-page.tsx"));
const NotFoundPage = lazy(() => import("#client/features/site/not-found-page.tsx"));
const CataloguePage = lazy(() => import("#client/features/catalogue/catalogue-page.tsx"));
const CourseDetailPage = lazy(() => import("#client/features/courses/course-detail-page.tsx"));
const LessonPage = lazy(() => import("#client/features/courses/lesson-page.tsx"));
const QuizPage = lazy(() => import("#client/features/learning/quiz-page.tsx"));
const ExamPage = lazy(() => import("#client/features/learning/exam-page.tsx"));
const MyLearningPage = lazy(() => import("#client/features/learning/my-learning-page.tsx"));
const CertificatePage = lazy(() => import("#client/features/certificates/certificate-page.tsx"));
const CertificatesPage = lazy(() => import("#client/features/certificates/certificates-page.tsx"));
const VerifyPage = lazy(() => import("#client/features/certificates/verify-page.tsx"));
const ProfilePage = lazy(() => import("#client/features/profile/profile-page.tsx"));
const CheckoutPage = lazy(() => import("#client/features/checkout/checkout-page.tsx"));
const HostedCheckoutPage = lazy(() => import("#client/features/checkout/hosted-checkout-page.tsx"));
const SimpleCheckoutPage = lazy(() => import("#client/features/checkout/simple-checkout-page.tsx"));
const SandboxCheckoutPage = lazy(() => import("#client/features/checkout/sandbox-checkout-page.tsx"));
const CheckoutSuccessPage = lazy(() => import("#client/features/checkout/checkout-success-page.tsx"));
const AdminEnrollmentsPage = lazy(() => import("#client/features/admin/admin-enrollments-page.tsx"));
const AdminCouponsPage = lazy(() => import("#client/features/admin/admin-coupons-page.tsx"));
const AdminOrdersPage = lazy(() => import("#client/features/admin/admin-orders-page.tsx"));
const AdminLearnersPage = lazy(() => import("#client/features/admin/admin-learners-page.tsx"));
const AdminAuditPage = lazy(() => import("#client/features/admin/admin-audit-page.tsx"));

function Layout() {
  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:p-2"
      >
        Skip to content
      </a>
      <Header />
      <RouteFocus />
      <main id="main" tabIndex={-1} className="flex-1">
        <Suspense fallback={<Spinner />}>
          <Outlet />
        </Suspense>
      </main>
      <Footer />
    </div>
  );
}

/** Spec: the spinner stays until about 100 ms after the first sign-in state report. */
function useAuthSettled(loading: boolean) {
  const [settled, setSettled] = useState(false);
  useEffect(() => {
    if (loading) return;
    const timer = setTimeout(() => setSettled(true), 100);
    return () => clearTimeout(timer);
  }, [loading]);
  return settled;
}

function RequireSignedIn({ signedIn, children }: { signedIn: boolean; children: ReactNode }) {
  const location = useLocation();
  if (!signedIn)
    return <Navigate to={`${paths.login}?next=${encodeURIComponent(location.pathname + location.search)}`} replace />;
  return children;
}

export function AppRoutes() {
  const { user, loading } = useCurrentUser();
  const settled = useAuthSettled(loading);
  if (!settled) return <Spinner label="Checking your sign-in" />;
  const signedIn = !!user;
  const member = (element: ReactNode) => <RequireSignedIn signedIn={signedIn}>{element}</RequireSignedIn>;

  return (
    <Routes>
      <Route element={<Layout />}>
        <Route path={paths.home} element={signedIn ? <CataloguePage /> : <LandingPage />} />
        <Route path={paths.login} element={signedIn ? <Navigate to={paths.home} replace /> : <LoginPage />} />
        <Route path={paths.resetPassword} element={<ResetPasswordPage />} />
        <Route path={paths.terms} element={<TermsPage />} />
        <Route path={paths.privacy} element={<PrivacyPage />} />
        <Route path="/course/:courseId" element={<CourseDetailPage />} />
        <Route path="/course/:courseId/lesson/:lessonId" element={<LessonPage />} />
        <Route path="/course/:courseId/quiz/:moduleId" element={<QuizPage />} />
        <Route path="/course/:courseId/exam" element={member(<ExamPage />)} />
        <Route path="/course/:courseId/certificate" element={member(<CertificatePage />)} />
        <Route path="/verify/:certificateId" element={<VerifyPage />} />
        <Route path={paths.myLearning} element={member(<MyLearningPage />)} />
        <Route path={paths.certificates} element={member(<CertificatesPage />)} />
        <Route path={paths.adminEnrollments} element={member(<AdminEnrollmentsPage />)} />
        <Route path="/admin" element={<Navigate to={paths.adminEnrollments} replace />} />
        <Route path="/admin/coupons" element={member(<AdminCouponsPage />)} />
        <Route path="/admin/orders" element={member(<AdminOrdersPage />)} />
        <Route path="/admin/learners" element={member(<AdminLearnersPage />)} />
        <Route path="/admin/audit" element={member(<AdminAuditPage />)} />
        <Route path={paths.profile} element={member(<ProfilePage />)} />
        <Route path={paths.checkoutSuccess} element={member(<CheckoutSuccessPage />)} />
        <Route path="/checkout/:courseId" element={member(<CheckoutPage />)} />
        <Route path="/firebase-checkout/:courseId" element={member(<HostedCheckoutPage />)} />
        <Route path="/simple-checkout/:courseId" element={member(<SimpleCheckoutPage />)} />
        <Route path="/sandbox-checkout/:sessionId" element={member(<SandboxCheckoutPage />)} />
        <Route path="/dashboard" element={<Navigate to={paths.home} replace />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
