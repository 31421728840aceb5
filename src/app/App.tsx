import { useEffect } from 'react';
import { Router } from 'wouter';
import { AppRouter } from './AppRouter';
import { installScrollRestoration } from './scroll';

/** The whole app. `ssrPath` is the path it renders when the build prerenders it. */
export function App({ ssrPath }: { ssrPath?: string }) {
  // Stryker disable next-line ArrayDeclaration: a list holding only a constant never changes either, so it is installed once
  useEffect(() => installScrollRestoration(), []);
  return (
    <Router ssrPath={ssrPath}>
      <AppRouter />
    </Router>
  );
}
