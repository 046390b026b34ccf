import { MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { useIntl } from '@umijs/max';
import { Button, Tooltip } from 'antd';
import { dispatchRoot } from '@/utils/store';

interface Props {
  collapsed: boolean;
  /** Instead of the persisted field (the layout folds the sidebar by itself on narrow screens). */
  onToggle?: (next: boolean) => void;
}

/** Sidebar collapse; the state lives in the persisted `collapsed` field. */
export default function CollapseButton({ collapsed, onToggle }: Props) {
  const intl = useIntl();
  const label = intl.formatMessage({ id: collapsed ? 'layout.expand' : 'layout.collapse' });
  return (
    <Tooltip title={label} placement="right">
      <Button
        type="text"
        aria-label={label}
        data-testid="layout-collapse"
        data-collapsed={String(collapsed)}
        icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
        onClick={() => (onToggle ? onToggle(!collapsed) : dispatchRoot('SET_COLLAPSED', !collapsed))}
        style={{ margin: 8 }}
      />
    </Tooltip>
  );
}
