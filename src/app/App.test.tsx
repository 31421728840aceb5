import { afterEach, describe, expect, it, vi } from 'vitest';
import { render } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { App } from './App';
import { forget } from './lazy-routes';
import { routeById, type RouteDef } from './routes';

const settings = routeById('settings') as RouteDef;

afterEach(() => {
  forget(settings);
  window.history.replaceState(null, '', '/');
});

describe('<App>', () => {
  it('takes scroll restoration over from the browser while it runs, and stops saving offsets once gone', async () => {
    vi.spyOn(settings, 'load').mockReturnValue(new Promise(() => {}));
    window.history.replaceState({ scrollKey: 'entry-1' }, '', '/settings');
    history.scrollRestoration = 'auto';
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => frames.push(cb));
    vi.stubGlobal('cancelAnimationFrame', () => {});

    const { unmount } = render(<App />);
    expect(history.scrollRestoration).toBe('manual');

    unmount();
    window.dispatchEvent(new Event('scroll'));
    expect(frames).toEqual([]);
  });

  it('renders the path it is given when the build prerenders it, not the one the browser is at', () => {
    window.history.replaceState(null, '', '/');
    vi.spyOn(settings, 'load').mockReturnValue(new Promise(() => {}));
    const page = new DOMParser().parseFromString(renderToString(<App ssrPath="/settings" />), 'text/html');
    expect(page.querySelector('.app')?.className).toBe('app app--sidenav');
  });
});
