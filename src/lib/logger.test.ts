import { describe, expect, it, vi } from 'vitest';

/** The level is module state: each test loads the logger afresh, at the default level. */
async function freshLog() {
  vi.resetModules();
  return import('./logger');
}

function spyConsole() {
  return {
    error: vi.spyOn(console, 'error').mockImplementation(() => {}),
    warn: vi.spyOn(console, 'warn').mockImplementation(() => {}),
    info: vi.spyOn(console, 'info').mockImplementation(() => {}),
    debug: vi.spyOn(console, 'debug').mockImplementation(() => {}),
  };
}

describe('log', () => {
  it('writes each message to the console method of its own level, details included', async () => {
    const { log, setLogLevel } = await freshLog();
    const spies = spyConsole();
    setLogLevel(4);
    const cause = new Error('boom');
    log.error('e', cause);
    log.warn('w', 1);
    log.info('i', { a: 1 });
    log.debug('d', 'x', 'y');
    expect(spies.error.mock.calls).toEqual([['e', cause]]);
    expect(spies.warn.mock.calls).toEqual([['w', 1]]);
    expect(spies.info.mock.calls).toEqual([['i', { a: 1 }]]);
    expect(spies.debug.mock.calls).toEqual([['d', 'x', 'y']]);
  });

  it('writes the configured level and below, and drops the levels above it', async () => {
    const { log, setLogLevel } = await freshLog();
    const spies = spyConsole();
    setLogLevel(2);
    log.error('e', 1);
    log.warn('w');
    log.info('i');
    log.debug('d');
    expect(spies.error).toHaveBeenCalledWith('e', 1);
    expect(spies.warn).toHaveBeenCalledWith('w');
    expect(spies.info).not.toHaveBeenCalled();
    expect(spies.debug).not.toHaveBeenCalled();
  });

  it('writes info by default and debug only when asked', async () => {
    const { log, setLogLevel } = await freshLog();
    const spies = spyConsole();
    log.info('i');
    log.debug('d');
    expect(spies.info).toHaveBeenCalledOnce();
    expect(spies.debug).not.toHaveBeenCalled();
    setLogLevel(4);
    log.debug('d');
    expect(spies.debug).toHaveBeenCalledWith('d');
  });
});
