import { LogoutOutlined, MoonOutlined, SunOutlined, TranslationOutlined, UserOutlined } from '@ant-design/icons';
import { getLocale, history, setLocale, useIntl, useModel, useSelector } from '@umijs/max';
import { Avatar, Button, Dropdown, Space, Tooltip } from 'antd';
import type { RootState } from '@/models/root';
import { dispatchRoot } from '@/utils/store';
import InboxBell from './InboxBell';
import { useSignOut } from './useSignOut';

export function ThemeSwitch() {
  const intl = useIntl();
  const theme = useSelector((state: { root: RootState }) => state.root.theme);
  const dark = theme === 'dark';
  const label = intl.formatMessage({ id: dark ? 'layout.theme.toLight' : 'layout.theme.toDark' });
  return (
    <Tooltip title={label}>
      <Button
        type="text"
        aria-label={label}
        data-testid="theme-switch"
        data-theme={dark ? 'dark' : 'light'}
        icon={dark ? <SunOutlined /> : <MoonOutlined />}
        onClick={() => dispatchRoot('SET_THEME', dark ? 'light' : 'dark')}
      />
    </Tooltip>
  );
}

export function LanguageSwitch() {
  const intl = useIntl();
  const current = getLocale();
  const next = current === 'en-US' ? 'zh-CN' : 'en-US';
  return (
    <Tooltip title={intl.formatMessage({ id: 'layout.language' })}>
      <Button
        type="text"
        data-testid="lang-switch"
        data-locale={current}
        icon={<TranslationOutlined />}
        onClick={() => setLocale(next, false)}
      >
        {next === 'en-US' ? 'EN' : '中文'}
      </Button>
    </Tooltip>
  );
}

export function UserMenu() {
  const intl = useIntl();
  const { initialState } = useModel('@@initialState');
  const name = initialState?.currentUser?.displayName || initialState?.currentUser?.userName || '';
  const logout = useSignOut();
  return (
    <Dropdown
      menu={{
        items: [
          {
            key: 'account',
            icon: <UserOutlined />,
            label: <span data-testid="user-menu-account">{intl.formatMessage({ id: 'layout.account' })}</span>,
            onClick: () => history.push('/account/center'),
          },
          { type: 'divider' },
          {
            key: 'logout',
            icon: <LogoutOutlined />,
            label: <span data-testid="logout">{intl.formatMessage({ id: 'layout.logout' })}</span>,
            onClick: logout,
          },
        ],
      }}
    >
      <Space data-testid="user-menu" style={{ cursor: 'pointer', padding: '0 8px' }}>
        <Avatar size="small" src="/avatar.svg" alt="" />
        <span data-testid="user-name">{name}</span>
      </Space>
    </Dropdown>
  );
}

/** Header actions: the inbox, theme, language, the signed-in user's menu. */
export default function HeaderActions() {
  return (
    <Space size={4} style={{ height: '100%', paddingInline: 8 }} data-testid="header-actions">
      <InboxBell />
      <ThemeSwitch />
      <LanguageSwitch />
      <UserMenu />
    </Space>
  );
}
