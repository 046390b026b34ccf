import { Spin } from 'antd';

export default function PageLoading() {
  return (
    <div data-testid="page-loading" style={{ padding: 48, textAlign: 'center' }}>
      <Spin size="large" />
    </div>
  );
}
