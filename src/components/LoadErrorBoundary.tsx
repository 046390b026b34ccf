import { WarningFilled } from '@ant-design/icons';
import { getLocale } from '@umijs/max';
import { Button, theme } from 'antd';
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
      <LoadError
        title={text(locale, 'loading.error.title')}
        subTitle={text(locale, 'loading.error.subTitle')}
        action={
          <Button type="primary" data-testid="load-error-retry" onClick={this.retry}>
            {text(locale, 'loading.error.retry')}
          </Button>
        }
      />
    );
  }
}

/** What antd's Result shows for a warning, without its illustrations (which would ride along in every screen). */
function LoadError({ title, subTitle, action }: { title: string; subTitle: string; action: ReactNode }) {
  const { token } = theme.useToken();
  return (
    <div data-testid="load-error" role="alert" style={{ padding: '48px 32px', textAlign: 'center' }}>
      <WarningFilled style={{ fontSize: 72, color: token.colorWarning }} />
      <div style={{ margin: '24px 0 8px', fontSize: 24, color: token.colorTextHeading }}>{title}</div>
      <div style={{ color: token.colorTextDescription }}>{subTitle}</div>
      <div style={{ marginTop: 24 }}>{action}</div>
    </div>
  );
}
