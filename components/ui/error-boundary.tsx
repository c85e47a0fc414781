/** Catches a render error in a part of the page (e.g. a form generated from a strange schema) and shows a fallback. */
import { Component, type ReactNode } from 'react';

interface Props {
  fallback(error: Error): ReactNode;
  children: ReactNode;
}

export class ErrorBoundary extends Component<Props, { error?: Error }> {
  state: { error?: Error } = {};

  static getDerivedStateFromError(error: unknown): { error: Error } {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  render(): ReactNode {
    return this.state.error ? this.props.fallback(this.state.error) : this.props.children;
  }
}
