import { describe, expect, it } from 'vitest';
import { safeNext } from './safe-next';

describe('safeNext', () => {
  it('follows a path of this app', () => {
    expect(safeNext('/profile')).toBe('/profile');
    expect(safeNext('/admin/symbols?page=2')).toBe('/admin/symbols?page=2');
  });

  it('without one, goes home', () => {
    expect(safeNext(null)).toBe('/home');
    expect(safeNext(undefined)).toBe('/home');
    expect(safeNext('')).toBe('/home');
  });

  it('never goes to another site, nor back to the callback', () => {
    expect(safeNext('https://evil.example/')).toBe('/home');
    expect(safeNext('//evil.example/')).toBe('/home');
    expect(safeNext('/\\evil.example/')).toBe('/home');
    expect(safeNext('/auth/callback?code=1')).toBe('/home');
  });

  it('judges a path by how it starts, not by what it contains', () => {
    expect(safeNext('/docs/auth/')).toBe('/docs/auth/');
    expect(safeNext('/docs/\\')).toBe('/docs/\\');
    expect(safeNext('/docs//x')).toBe('/docs//x');
  });
});
