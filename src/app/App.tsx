import { useEffect } from 'react';
import { Router } from 'wouter';
import { AppRouter } from './AppRouter';
import { installScrollRestoration } from './scroll';

export function App() {
  useEffect(() => installScrollRestoration(), []);
  return (
    <Router>
      <AppRouter />
    </Router>
  );
}
