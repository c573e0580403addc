import { Component, type ErrorInfo, type ReactNode } from 'react';

type Props = {
  fallback: (reset: () => void) => ReactNode;
  onError?: (error: unknown) => void;
  children: ReactNode;
};

/** Uncaught failures (an unmapped status, a transport failure) end on the error card. */
export class ErrorBoundary extends Component<Props, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('Gatehouse sign-in widget:', error, info.componentStack);
    this.props.onError?.(error);
  }
  override render() {
    return this.state.failed
      ? this.props.fallback(() => this.setState({ failed: false }))
      : this.props.children;
  }
}
