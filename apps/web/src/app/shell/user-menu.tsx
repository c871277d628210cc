import { useState } from 'react';
import { App, Avatar, Button, Dropdown, Switch, type MenuProps } from 'antd';
import { DownOutlined, GlobalOutlined, KeyOutlined, LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../lib/form-errors';
import { currentLanguage, isLanguage } from '../../lib/i18n';
import { LOGIN_PATH, USER_INFO_PATH } from '../../lib/paths';
import { leaveSession, switchLanguage, switchTheme, type CurrentUser } from '../../lib/session';
import { useThemeName } from '../../lib/theme';

interface UserMenuProps {
  user: CurrentUser;
  compact: boolean;
  onChangePassword: () => void;
}

/** The avatar/name menu: user information, change password, theme, language, sign out. */
export function UserMenu({ user, compact, onChangePassword }: UserMenuProps) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const themeName = useThemeName();
  const [open, setOpen] = useState(false);
  const language = isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : currentLanguage();
  const dark = themeName === 'dark';

  const report = (promise: Promise<unknown>) => {
    promise.catch((error: unknown) => {
      void message.error(errorMessage(error));
    });
  };

  const items: MenuProps['items'] = [
    { key: 'info', icon: <UserOutlined />, label: t('userMenu.info') },
    { key: 'password', icon: <KeyOutlined />, label: t('userMenu.changePassword') },
    { type: 'divider' },
    {
      key: 'theme',
      label: (
        <span style={{ display: 'inline-flex', alignItems: 'center', justifyContent: 'space-between', gap: 16, width: '100%' }}>
          <span>{t('theme.dark')}</span>
          <Switch size="small" checked={dark} aria-label={t('theme.dark')} tabIndex={-1} />
        </span>
      ),
    },
    {
      key: 'language',
      icon: <GlobalOutlined />,
      label: t('language.label'),
      children: [
        { key: 'lang:zh-CN', label: t('language.zhCN') },
        { key: 'lang:en-US', label: t('language.enUS') },
      ],
    },
    { type: 'divider' },
    { key: 'signOut', icon: <LogoutOutlined />, danger: true, label: t('userMenu.signOut') },
  ];

  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key === 'theme') {
      report(switchTheme(dark ? 'light' : 'dark'));
      return; // stay open so the switch is seen to change
    }
    setOpen(false);
    if (key === 'info') void navigate(USER_INFO_PATH);
    else if (key === 'password') onChangePassword();
    else if (key === 'signOut') report(leaveSession(() => navigate(LOGIN_PATH, { replace: true }), { revoke: true }));
    else if (key.startsWith('lang:')) {
      const lang = key.slice('lang:'.length);
      if (isLanguage(lang)) report(switchLanguage(lang));
    }
  };

  return (
    <Dropdown
      trigger={['click']}
      open={open}
      onOpenChange={(next, info) => {
        if (info.source === 'trigger') setOpen(next);
      }}
      menu={{ items, onClick, selectable: true, selectedKeys: [`lang:${language}`] }}
      placement="bottomRight"
    >
      <Button type="text" aria-label={t('shell.userMenu')} style={{ height: 48, paddingInline: 8 }}>
        <span style={{ display: 'inline-flex', alignItems: 'center', gap: 8 }}>
          <Avatar size={32} src={user.Picture || undefined} icon={<UserOutlined />} alt="" />
          {!compact && <span>{user.UserName || user.Account}</span>}
          <DownOutlined style={{ fontSize: 10 }} aria-hidden />
        </span>
      </Button>
    </Dropdown>
  );
}
