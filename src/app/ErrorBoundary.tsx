import { Component, type ErrorInfo, type ReactNode } from 'react';
import { log } from '../lib/logger';

interface Props {
  /** Rendered instead of the children after a failure; `retry` renders them again. */
  fallback: (error: Error, retry: () => void) => ReactNode;
  children: ReactNode;
  /** A change of this value (the route, say) clears a past failure. */
  resetKey?: unknown;
  onRetry?: () => void;
}

interface State {
  error: Error | null;
  resetKey: unknown;
}

/** Keeps the shell alive when a screen throws: the failure is logged and the screen offers a retry. */
export class ErrorBoundary extends Component<Props, State> {
  // Stryker disable next-line ObjectLiteral: an empty state reads as no error, and getDerivedStateFromProps stores any resetKey given before the first render
  override state: State = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey !== state.resetKey ? { error: null, resetKey: props.resetKey } : null;
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    log.error('A screen failed', error, info.componentStack);
  }

  retry = () => {
    this.props.onRetry?.();
    this.setState({ error: null });
  };

  override render() {
    return this.state.error ? this.props.fallback(this.state.error, this.retry) : this.props.children;
  }
}
