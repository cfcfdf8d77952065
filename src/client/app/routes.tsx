import { type ComponentType, lazy, type ReactNode, Suspense, useEffect, useState } from "react";
import { Navigate, Outlet, Route, Routes, useLocation, useParams } from "react-router";
import { Footer } from "#client/components/layout/footer.tsx";
import { Header } from "#client/components/layout/header.tsx";
import { RouteFocus } from "#client/components/layout/route-focus.tsx";
import { Spinner } from "#client/components/ui/misc.tsx";
import { paths } from "#client/config/paths.ts";
import { type LessonSlots, LessonSlotsContext } from "#client/lib/lesson-slots.tsx";
import { useCurrentUser } from "#client/lib/session.ts";
import { isQuestionPage, routePatterns } from "#shared/client-routes.ts";

interface LazyPage {
  /** Loads the page's code ahead. */
  preload: () => Promise<unknown>;
  lazy: ComponentType;
  loaded?: ComponentType;
}

/** A page whose code loads on first use, or ahead through `preload`. */
function lazyPage(load: () => Promise<{ default: ComponentType }>): LazyPage {
  const page: LazyPage = {
    preload: () =>
      load().then((module) => {
        page.loaded = module.default;
        return module;
      }),
    lazy: lazy(() => page.preload() as ReturnType<typeof load>),
  };
  return page;
}

/**
 * A lazy page: once its code is in, it renders without suspending, which server rendering and
 * hydration need (docs/decisions/0032); before that, React.lazy loads it under the Suspense boundary.
 */
function Page({ page }: { page: LazyPage }) {
  const Component = page.loaded ?? page.lazy;
  return <Component />;
}

// Only staff whose role waits for a second factor see it: kept out of everyone else's first load.
const SecondFactorFirstPage = lazy(() =>
  import("#client/components/layout/second-factor-notice.tsx").then((m) => ({ default: m.SecondFactorFirstPage })),
);
const SecondFactorNotice = lazy(() =>
  import("#client/components/layout/second-factor-notice.tsx").then((m) => ({ default: m.SecondFactorNotice })),
);
const LandingPage = lazyPage(() => import("#client/features/landing/landing-page.tsx"));
const LoginPage = lazyPage(() => import("#client/features/auth/login-page.tsx"));
const ResetPasswordPage = lazy(() => import("#client/features/auth/reset-password-page.tsx"));
const TermsPage = lazyPage(() => import("#client/features/legal/terms-page.tsx"));
const PrivacyPage = lazyPage(() => import("#client/features/legal/privacy-page.tsx"));
const PractitionersPage = lazyPage(() => import("#client/features/practitioners/practitioners-page.tsx"));
const RegisterPractitionerPage = lazy(() => import("#client/features/site/register-practitioner-page.tsx"));
const NotFoundPage = lazy(() => import("#client/features/site/not-found-page.tsx"));
const CataloguePage = lazy(() => import("#client/features/catalogue/catalogue-page.tsx"));
const CourseDetailPage = lazyPage(() => import("#client/features/courses/course-detail-page.tsx"));
const LessonPage = lazyPage(() => import("#client/features/courses/lesson-page.tsx"));
/** The questions feature's parts of a lesson page (decision 0056). */
const LESSON_SLOTS: LessonSlots = {
  Questions: lazy(() => import("#client/features/questions/questions-panel.tsx")),
  CommonQuestions: lazy(() => import("#client/features/questions/common-questions.tsx")),
};
// The questions pages load with the lesson's panel, moderation from the learners page's chunk: a chunk of
// their own would add its files' names to every first load.
const QuestionsPages = lazy(() =>
  import("#client/features/questions/questions-panel.tsx").then((m) => ({ default: m.QuestionsPages })),
);
/** An unknown name under /questions/ is the app's not-found page, as the server's 404 says. */
function QuestionsPageOrNotFound() {
  return isQuestionPage(useParams().page ?? "") ? <QuestionsPages /> : <NotFoundPage />;
}
const QuizPage = lazy(() => import("#client/features/learning/quiz-page.tsx"));
const ExamPage = lazy(() => import("#client/features/learning/exam-page.tsx"));
const RecertificationPage = lazy(() => import("#client/features/learning/recertification-page.tsx"));
const UnsubscribePage = lazy(() => import("#client/features/certificates/unsubscribe-page.tsx"));
const AdminCertificatesPage = lazy(() => import("#client/features/admin/admin-certificates-page.tsx"));
const PracticalPage = lazy(() => import("#client/features/practical/practical-page.tsx"));
const ReviewQueuePage = lazy(() => import("#client/features/practical/review-queue-page.tsx"));
const ReviewPage = lazy(() => import("#client/features/practical/review-page.tsx"));
const MyLearningPage = lazy(() => import("#client/features/learning/my-learning-page.tsx"));
const CertificatePage = lazy(() => import("#client/features/certificates/certificate-page.tsx"));
const CertificatesPage = lazy(() => import("#client/features/certificates/certificates-page.tsx"));
const VerifyPage = lazyPage(() => import("#client/features/certificates/verify-page.tsx"));
const PurchasesPage = lazy(() => import("#client/features/purchases/purchases-page.tsx"));
const ReceiptPage = lazy(() => import("#client/features/purchases/receipt-page.tsx"));
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
const AdminItemStatisticsPage = lazy(() => import("#client/features/admin/admin-item-statistics-page.tsx"));
const AdminAnalyticsPage = lazy(() => import("#client/features/admin/admin-analytics-page.tsx"));
const AdminAuditPage = lazy(() => import("#client/features/admin/admin-audit-page.tsx"));
const AdminOutboxPage = lazy(() => import("#client/features/admin/admin-outbox-page.tsx"));
const StudioApp = lazy(() => import("#client/features/studio/studio-app.tsx"));

/** The pages the server renders for a visitor (decision 0032), by their route name. */
export const serverRenderedPages = {
  home: LandingPage,
  login: LoginPage,
  terms: TermsPage,
  privacy: PrivacyPage,
  course: CourseDetailPage,
  lesson: LessonPage,
  practitioners: PractitionersPage,
  verify: VerifyPage,
};

/** The entry pages' code starts loading with the app instead of after the sign-in check. */
export function preloadEntryPage(path: string) {
  if (path === paths.home) void LandingPage.preload();
  else if (path === paths.login) void LoginPage.preload();
  else if (/^\/course\/[^/]+\/lesson\/[^/]+$/.test(path)) void LessonPage.preload();
  else if (/^\/course\/[^/]+$/.test(path)) void CourseDetailPage.preload();
}

function Layout() {
  const { user } = useCurrentUser();
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
      {/* At least a screen tall, so the footer starts below the fold and does not jump when a page arrives. */}
      <main id="main" tabIndex={-1} className="min-h-screen flex-1">
        {user?.roleOnHold ? (
          <Suspense fallback={null}>
            <SecondFactorNotice />
          </Suspense>
        ) : null}
        <Suspense fallback={<Spinner />}>
          <Outlet />
        </Suspense>
      </main>
      <Footer />
    </div>
  );
}

/**
 * Spec: the spinner stays until about 100 ms after the first sign-in state report. A page the
 * server rendered arrives with that report (a visitor), so it starts settled.
 */
function useAuthSettled(loading: boolean) {
  const [settled, setSettled] = useState(!loading);
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
  // Staff areas: staff whose role waits for a second factor are asked to set one up first (decision 0054).
  const staff = (element: ReactNode) => member(user?.roleOnHold ? <SecondFactorFirstPage /> : element);

  return (
    <Routes>
      <Route element={<Layout />}>
        <Route path={routePatterns.home} element={signedIn ? <CataloguePage /> : <Page page={LandingPage} />} />
        <Route
          path={routePatterns.login}
          element={signedIn ? <Navigate to={paths.home} replace /> : <Page page={LoginPage} />}
        />
        <Route path={routePatterns.resetPassword} element={<ResetPasswordPage />} />
        <Route path={routePatterns.terms} element={<Page page={TermsPage} />} />
        <Route path={routePatterns.privacy} element={<Page page={PrivacyPage} />} />
        <Route path={routePatterns.course} element={<Page page={CourseDetailPage} />} />
        <Route
          path={routePatterns.lesson}
          element={
            <LessonSlotsContext.Provider value={LESSON_SLOTS}>
              <Page page={LessonPage} />
            </LessonSlotsContext.Provider>
          }
        />
        <Route path={routePatterns.questionsModeration} element={member(<AdminLearnersPage />)} />
        <Route path={routePatterns.questionsPage} element={<QuestionsPageOrNotFound />} />
        <Route path={routePatterns.quiz} element={<QuizPage />} />
        <Route path={routePatterns.exam} element={member(<ExamPage />)} />
        <Route path={routePatterns.recertify} element={member(<RecertificationPage />)} />
        <Route path={routePatterns.unsubscribe} element={<UnsubscribePage />} />
        <Route path={routePatterns.practical} element={member(<PracticalPage />)} />
        <Route path={routePatterns.reviewQueue} element={staff(<ReviewQueuePage />)} />
        <Route path={routePatterns.reviewSubmission} element={staff(<ReviewPage />)} />
        {/* Calibration loads from the review area's chunk: the first load of every page stays within its budget. */}
        <Route path={routePatterns.reviewCalibration} element={staff(<ReviewQueuePage />)} />
        <Route path={routePatterns.courseCertificate} element={member(<CertificatePage />)} />
        <Route path={routePatterns.verify} element={<Page page={VerifyPage} />} />
        <Route path={routePatterns.myLearning} element={member(<MyLearningPage />)} />
        <Route path={routePatterns.certificates} element={member(<CertificatesPage />)} />
        <Route path={routePatterns.adminEnrollments} element={staff(<AdminEnrollmentsPage />)} />
        <Route path={routePatterns.admin} element={<Navigate to={paths.adminAnalytics} replace />} />
        <Route path={routePatterns.adminAnalytics} element={staff(<AdminAnalyticsPage />)} />
        <Route path={routePatterns.adminCoupons} element={staff(<AdminCouponsPage />)} />
        <Route path={routePatterns.adminOrders} element={staff(<AdminOrdersPage />)} />
        <Route path={routePatterns.adminLearners} element={staff(<AdminLearnersPage />)} />
        <Route path={routePatterns.adminAudit} element={staff(<AdminAuditPage />)} />
        <Route path={routePatterns.adminOutbox} element={staff(<AdminOutboxPage />)} />
        {/* The agreement report loads from the item statistics' chunk (both measure assessment quality). */}
        <Route path={routePatterns.adminAgreement} element={staff(<AdminItemStatisticsPage />)} />
        <Route path={routePatterns.adminCertificates} element={staff(<AdminCertificatesPage />)} />
        <Route path={routePatterns.adminItemStatistics} element={staff(<AdminItemStatisticsPage />)} />
        <Route path={`${routePatterns.studio}/*`} element={staff(<StudioApp />)} />
        <Route path={routePatterns.profile} element={member(<ProfilePage />)} />
        <Route path={routePatterns.purchases} element={member(<PurchasesPage />)} />
        <Route path={routePatterns.receipt} element={member(<ReceiptPage />)} />
        <Route path={routePatterns.checkoutSuccess} element={member(<CheckoutSuccessPage />)} />
        <Route path={routePatterns.checkout} element={member(<CheckoutPage />)} />
        <Route path={routePatterns.hostedCheckout} element={member(<HostedCheckoutPage />)} />
        <Route path={routePatterns.simpleCheckout} element={member(<SimpleCheckoutPage />)} />
        <Route path={routePatterns.sandboxCheckout} element={member(<SandboxCheckoutPage />)} />
        <Route path={routePatterns.dashboard} element={<Navigate to={paths.home} replace />} />
        <Route path={routePatterns.registerPractitioner} element={<RegisterPractitionerPage />} />
        <Route path={routePatterns.practitioners} element={<Page page={PractitionersPage} />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
