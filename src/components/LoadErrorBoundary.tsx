import { getLocale } from '@umijs/max';
import { Button, Result } from 'antd';
import { Component, type ReactNode } from 'react';
import { text } from '@/utils/i18n';

interface Props {
  children: ReactNode;
  /** How to retry; the default reloads the page (a failed lazy chunk stays failed in React.lazy). */
  onRetry?: () => void;
}

/** Shows the load error of spec.md §8 when a screen (or its chunk) fails, with a retry button. */
export default class LoadErrorBoundary extends Component<Props, { error?: Error }> {
  state: { error?: Error } = {};

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  retry = () => {
    if (this.props.onRetry) {
      this.setState({ error: undefined });
      this.props.onRetry();
      return;
    }
    window.location.reload();
  };

  render() {
    if (!this.state.error) return this.props.children;
    const locale = getLocale();
    return (
      <div data-testid="load-error">
        <Result
          status="warning"
          title={text(locale, 'loading.error.title')}
          subTitle={text(locale, 'loading.error.subTitle')}
          extra={
            <Button type="primary" data-testid="load-error-retry" onClick={this.retry}>
              {text(locale, 'loading.error.retry')}
            </Button>
          }
        />
      </div>
    );
  }
}
