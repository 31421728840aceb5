import { StrictMode, type ReactNode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { Router } from 'wouter';
import { App } from '../app/App';
import { Loading } from '../app/AppRouter';
import { Shell } from '../app/layouts/Shell';
import { breadcrumbsFor } from '../app/resolve-route';
import { routeById, type LayoutKind } from '../app/routes';
import { buildTitle } from '../app/title';
import { setRenderMode } from '../state/render-mode';
import { config } from '../config/load';
import { t } from '../i18n';

/**
 * The build's static rendering (run in Node by the prerender plugin, never shipped): each page is
 * what a first visit renders before any data comes, signed out, in English.
 */
export interface PrerenderedPage {
  /** The markup that goes inside `<div id="root">`. */
  html: string;
  title: string;
}

async function renderToHtml(element: ReactNode): Promise<string> {
  setRenderMode('static');
  // A component that fails here would leave its part to the browser without a word: fail the build.
  const errors: unknown[] = [];
  const { prelude } = await prerenderToNodeStream(<StrictMode>{element}</StrictMode>, { onError: (error) => void errors.push(error) });
  if (errors.length > 0) throw errors[0];
  const chunks: Buffer[] = [];
  for await (const chunk of prelude) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).toString('utf8');
}

/** A public route, rendered by the whole app at its path: the browser hydrates it. */
export async function renderRoute(routeId: string, path: string): Promise<PrerenderedPage> {
  const route = routeById(routeId);
  if (!route) throw new Error(`No route ${routeId}`);
  const html = await renderToHtml(<App ssrPath={path} />);
  return { html, title: buildTitle(breadcrumbsFor(route, {}, t), config().appTitle) };
}

/**
 * The frame of a layout with its loading state: for the routes that need a session (the visitor
 * may be signed in or not) and for any other path. The browser renders over it, never hydrates it.
 */
export async function renderFrame(layout: LayoutKind, path: string, titleKey?: Parameters<typeof t>[0]): Promise<PrerenderedPage> {
  const html = await renderToHtml(
    <Router ssrPath={path}>
      <Shell layout={layout}>
        <Loading />
      </Shell>
    </Router>,
  );
  return { html, title: buildTitle(titleKey ? [{ title: t(titleKey) }] : [], config().appTitle) };
}
