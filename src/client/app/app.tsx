import { type QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, StrictMode, useEffect, useRef } from "react";
import { useLocation } from "react-router";
import { StepUpPrompt } from "#client/components/ui/step-up-prompt.tsx";
import { ToastProvider } from "#client/components/ui/toast.tsx";
import { endServerData } from "#client/lib/query-client.ts";
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
              <StepUpPrompt />
            </>,
          )}
        </ToastProvider>
      </QueryClientProvider>
    </StrictMode>
  );
}
