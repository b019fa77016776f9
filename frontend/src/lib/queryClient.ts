import { QueryClient } from "@tanstack/react-query";
import { ApiError } from "@/lib/apiError";

/** The one server-state cache of the app (the router's prefetches and the pages share it). */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // Client errors (4xx) will not fix themselves; retry only network and server errors.
      retry: (count, err) => !(err instanceof ApiError && err.status < 500) && count < 2,
      refetchOnWindowFocus: false,
    },
  },
});
