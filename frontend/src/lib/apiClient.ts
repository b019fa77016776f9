import { client } from "@/client/client.gen";
import { toApiError } from "./apiError";
import { getToken, setToken } from "./session";

/**
 * Configures the generated client (src/client/) once: same-origin base URL, the session's
 * bearer token, errors thrown as ApiError, and a 401 ends the session.
 */
client.setConfig({
  baseUrl: "",
  auth: () => getToken() ?? undefined,
  throwOnError: true,
});

client.interceptors.error.use((error, response) => {
  if (!response) return error;
  if (response.status === 401 && getToken()) setToken(null);
  return toApiError(response.status, error);
});

export { client };
