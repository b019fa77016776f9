/** Request and response of `POST …/query/raw` (DQL.md §2), as the backend's OpenAPI types them. */
export type { DqlQuery, DqlRequest, DqlResponse, DqlResult, DqlSeries } from "@/client/types.gen";
