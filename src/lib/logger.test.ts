import { afterEach, describe, expect, it, vi } from 'vitest';
import { log, setLogLevel } from './logger';

describe('log', () => {
  afterEach(() => setLogLevel(3));

  it('writes the configured level and below, and drops the levels above it', () => {
    const spies = {
      error: vi.spyOn(console, 'error').mockImplementation(() => {}),
      warn: vi.spyOn(console, 'warn').mockImplementation(() => {}),
      info: vi.spyOn(console, 'info').mockImplementation(() => {}),
      debug: vi.spyOn(console, 'debug').mockImplementation(() => {}),
    };
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

  it('writes info by default and debug only when asked', () => {
    const info = vi.spyOn(console, 'info').mockImplementation(() => {});
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => {});
    log.info('i');
    log.debug('d');
    expect(info).toHaveBeenCalledOnce();
    expect(debug).not.toHaveBeenCalled();
    setLogLevel(4);
    log.debug('d');
    expect(debug).toHaveBeenCalledWith('d');
  });
});
