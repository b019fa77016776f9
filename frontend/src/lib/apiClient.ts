import { client } from "@/client/client.gen";
import { authRefresh } from "@/client/sdk.gen";
import { toApiError } from "./apiError";
import { endSession, freshToken, getToken, type Renew } from "./session";

/** Asks the server for new tokens; undefined when it refuses the refresh token. */
const renew: Renew = async (refreshToken) => {
  const res = await authRefresh({ body: { refresh_token: refreshToken }, security: [], throwOnError: false });
  if (res.response?.status === 401) return undefined;
  if (!res.data) throw new Error(`renewing the session failed (HTTP ${res.response?.status ?? "?"})`);
  return res.data;
};

/**
 * Configures the generated client (src/client/) once: same-origin base URL, the session's
 * bearer token (renewed before it expires), errors thrown as ApiError, and a 401 for the
 * session itself ends it (a wrong password, code `invalid_credentials`, does not).
 */
client.setConfig({
  baseUrl: "",
  auth: () => freshToken(renew),
  throwOnError: true,
});

client.interceptors.error.use((error, response) => {
  if (!response) return error;
  const code = (error as { code?: unknown } | undefined)?.code;
  if (response.status === 401 && getToken() && code !== "invalid_credentials") endSession({ expired: true });
  return toApiError(response.status, error);
});

export { client };
