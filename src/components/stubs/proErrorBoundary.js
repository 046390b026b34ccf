/**
 * Stands in for ProComponents' ErrorBoundary (build only, see .umirc.ts), which ProLayout puts around the content:
 * the same fallback, but its antd Result loads when something fails instead of with every screen. The screens'
 * own failures are caught closer, per tab (src/components/LoadErrorBoundary.tsx).
 * Plain JavaScript: it takes the place of a file of node_modules, which is not compiled as TypeScript.
 */
import { Component, createElement, lazy, Suspense } from 'react';

const Result = lazy(() => import('antd/es/result'));

export class ErrorBoundary extends Component {
  state = { hasError: false, errorInfo: '' };

  static getDerivedStateFromError(error) {
    return { hasError: true, errorInfo: error.message };
  }

  render() {
    if (!this.state.hasError) return this.props.children;
    return createElement(
      Suspense,
      { fallback: null },
      createElement(Result, { status: 'error', title: 'Something went wrong.', extra: this.state.errorInfo }),
    );
  }
}
