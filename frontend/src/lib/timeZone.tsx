import { createContext, useContext, type ReactElement, type ReactNode } from "react";
import { localTimeZone } from "./time";

const TimeZoneContext = createContext<string | undefined>(undefined);

/** Times under it are read and written in `timeZone` (a dashboard's), not the browser's. */
export function TimeZoneProvider({ timeZone, children }: { timeZone?: string | null; children: ReactNode }): ReactElement {
  return <TimeZoneContext.Provider value={timeZone || undefined}>{children}</TimeZoneContext.Provider>;
}

/** The IANA zone times are shown in here: the dashboard's, else the browser's. */
export function useTimeZone(): string {
  return useContext(TimeZoneContext) ?? localTimeZone();
}

/** Every IANA zone the browser knows, UTC first. */
export function timeZoneNames(): string[] {
  const all = (Intl as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf?.("timeZone") ?? [];
  return ["UTC", ...all.filter((z) => z !== "UTC")];
}
