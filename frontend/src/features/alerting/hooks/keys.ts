// shared with the panels that mark alert events (api/alertEvents.ts)
export { alertingKey } from "@/api/alertEvents";
