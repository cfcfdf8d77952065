import { type QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { lazy, type ReactNode, StrictMode, Suspense, useEffect, useRef } from "react";
import { useLocation } from "react-router";
import { ToastProvider } from "#client/components/ui/toast.tsx";
import { endServerData } from "#client/lib/query-client.ts";
import { useCurrentUser } from "#client/lib/session.ts";
import { AppRoutes } from "./routes.tsx";

/** After the first navigation, data the server rendered with is read again like any other. */
function ServerDataEnd() {
  const { pathname } = useLocation();
  const first = useRef(pathname);
  useEffect(() => {
    if (pathname !== first.current) endServerData();
  }, [pathname]);
  return null;
}

const StepUpPrompt = lazy(() =>
  import("#client/components/ui/step-up-prompt.tsx").then((m) => ({ default: m.StepUpPrompt })),
);

/**
 * Only staff act where a fresh second factor is asked for (refunds, revocations, grants, publishing,
 * coupons): the prompt and its dialog load for them alone, outside every learner's and visitor's
 * first load.
 */
function StaffStepUpPrompt() {
  const { user } = useCurrentUser();
  if (!user || user.role === "learner") return null;
  return (
    <Suspense fallback={null}>
      <StepUpPrompt />
    </Suspense>
  );
}

/**
 * The whole app under a router: the browser's (main.tsx) or, on the server, a static one at the
 * requested address (entry-server.tsx). Both render this same tree, so hydration matches.
 */
export function App({ queryClient, router }: { queryClient: QueryClient; router: (app: ReactNode) => ReactNode }) {
  return (
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <ToastProvider>
          {router(
            <>
              <ServerDataEnd />
              <AppRoutes />
              <StaffStepUpPrompt />
            </>,
          )}
        </ToastProvider>
      </QueryClientProvider>
    </StrictMode>
  );
}
