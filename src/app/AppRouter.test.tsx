import { afterEach, describe, expect, it } from 'vitest';
import { act, render, waitFor } from '@testing-library/react';
import { navigate } from 'wouter/use-browser-location';
import { App } from './App';
import { routerState } from '../state/router';
import { sessionEnded, sessionStarted } from '../state/auth';

afterEach(() => {
  act(() => sessionEnded('signed-out'));
  window.history.replaceState(null, '', '/');
});

describe('<AppRouter> keeps the router state', () => {
  it('holds the url, params, query parameters and breadcrumbs of the route shown, and follows navigation', async () => {
    act(() => sessionStarted({ subject: 'ada', name: 'Ada Lovelace', email: null }));
    window.history.replaceState(null, '', '/admin/symbols?page=2&q=ms%20ft');
    render(<App />);
    await waitFor(() => expect(routerState.value.url).toBe('/admin/symbols'));
    expect(routerState.value).toEqual({
      url: '/admin/symbols',
      params: { collection: 'symbols' },
      queryParams: { page: '2', q: 'ms ft' },
      breadcrumbs: [
        { title: 'Admin', path: '/admin' },
        { title: 'symbols', path: '/admin/symbols' },
      ],
      data: {},
    });
    expect(document.title).toBe('Admin | symbols | Circle');

    act(() => navigate('/settings'));
    await waitFor(() => expect(routerState.value.url).toBe('/settings'));
    expect(routerState.value).toMatchObject({ params: {}, queryParams: {}, breadcrumbs: [{ title: 'Settings', path: '/settings' }] });
  });

  it('a guarded route seen signed out is not the router state: the sign-in route is', async () => {
    window.history.replaceState(null, '', '/admin');
    render(<App />);
    await waitFor(() => expect(routerState.value.url).toBe('/sign-in'));
    expect(routerState.value.queryParams).toEqual({ next: '/admin' });
  });
});
