// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { buildTitle, DEFAULT_TITLE } from './title';

describe('buildTitle', () => {
  it("uses 'WebApp' when no default title is given", () => {
    expect(DEFAULT_TITLE).toBe('WebApp');
    expect(buildTitle([])).toBe('WebApp');
    expect(buildTitle([], '')).toBe('WebApp');
  });

  it("joins the breadcrumb titles in order with ' | ', the default title last", () => {
    expect(buildTitle([{ title: 'Admin' }, { title: 'symbols' }])).toBe('Admin | symbols | WebApp');
    expect(buildTitle([{ title: 'Home' }], 'Circle')).toBe('Home | Circle');
    expect(buildTitle([{ title: 'Admin' }, { title: 'accounts' }], 'Circle')).toBe('Admin | accounts | Circle');
  });

  it('leaves out empty breadcrumb titles', () => {
    expect(buildTitle([{ title: 'Admin' }, { title: '' }], 'Circle')).toBe('Admin | Circle');
  });
});
