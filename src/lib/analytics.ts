import { log } from './logger';

export interface AnalyticsEvent {
  category: string;
  action: string;
  at: number;
}

const events: AnalyticsEvent[] = [];

/** The one way the app records product events: kept on the device, written to the console in development. */
export function track(category: string, action: string): void {
  events.push({ category, action, at: Date.now() });
  if (events.length > 100) events.shift();
  if (import.meta.env.DEV) log.info(`[analytics] ${category}: ${action}`);
}

export function trackedEvents(): readonly AnalyticsEvent[] {
  return events.slice();
}
