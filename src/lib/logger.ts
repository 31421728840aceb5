/** 1 error, 2 warn, 3 info, 4 debug; the configured level and below are written. */
const LEVELS = { error: 1, warn: 2, info: 3, debug: 4 } as const;
type Level = keyof typeof LEVELS;

// Info until the configuration says otherwise: the boot sets it once the config is loaded.
let threshold = 3;

export function setLogLevel(level: number): void {
  threshold = level;
}

function write(level: Level, message: string, ...details: unknown[]) {
  if (LEVELS[level] > threshold) return;
  console[level](message, ...details);
}

export const log = {
  error: (message: string, ...details: unknown[]) => write('error', message, ...details),
  warn: (message: string, ...details: unknown[]) => write('warn', message, ...details),
  info: (message: string, ...details: unknown[]) => write('info', message, ...details),
  debug: (message: string, ...details: unknown[]) => write('debug', message, ...details),
};
