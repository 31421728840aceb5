import { config } from '../config/load';

/** 1 error, 2 warn, 3 info, 4 debug; the configured level (3 by default) and below are written. */
const LEVELS = { error: 1, warn: 2, info: 3, debug: 4 } as const;
type Level = keyof typeof LEVELS;

function write(level: Level, message: string, ...details: unknown[]) {
  if (LEVELS[level] > config().logLevel) return;
  console[level](message, ...details);
}

export const log = {
  error: (message: string, ...details: unknown[]) => write('error', message, ...details),
  warn: (message: string, ...details: unknown[]) => write('warn', message, ...details),
  info: (message: string, ...details: unknown[]) => write('info', message, ...details),
  debug: (message: string, ...details: unknown[]) => write('debug', message, ...details),
};
