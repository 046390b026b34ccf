import { Empty } from 'antd';
import type { ReactNode } from 'react';

/** An empty list that says what to do first, with the button that does it (when the user may). */
export default function EmptyState({ text, action, testId }: { text: ReactNode; action?: ReactNode; testId: string }) {
  return (
    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={text} data-testid={testId}>
      {action}
    </Empty>
  );
}
