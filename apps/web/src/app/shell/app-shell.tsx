import { Suspense, useEffect, useState } from 'react';
import { App, Button, Drawer, Layout, Modal, theme } from 'antd';
import { MenuFoldOutlined, MenuOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { Link, Outlet, useLocation } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Brand } from '../../components/brand';
import { PageSpinner } from '../../components/spinners';
import '../../lib/console-catalog';
import '../../lib/dates';
import { HOME_PATH } from '../../lib/paths';
import { CommonParamsLoader } from '../../lib/common-params';
import { myInfoQueryOptions } from '../../lib/current-user';
import { MOBILE_QUERY, useMediaQuery } from '../../lib/use-media-query';
import { recordVisit } from '../../lib/visit-history';
import { ChangePasswordForm } from '../../features/account/components/change-password-form';
import { HeaderBreadcrumb } from './header-breadcrumb';
import { PageWatermark } from './page-watermark';
import { SideMenu } from './side-menu';
import { UserMenu } from './user-menu';
import { LiveIndicator } from '../../components/live-indicator';
import { useLiveConnection } from '../../lib/live/live-hooks';
import { AlarmBell } from '../../features/notices/components/alarm-bell';

/** Spec §2: the side navigation is 224 px wide. */
export const SIDER_WIDTH = 224;
const HEADER_HEIGHT = 56;

function BrandLink({ collapsed }: { collapsed: boolean }) {
  return (
    <Link
      to={HOME_PATH}
      style={{
        display: 'flex',
        alignItems: 'center',
        justifyContent: collapsed ? 'center' : 'flex-start',
        height: HEADER_HEIGHT,
        paddingInline: collapsed ? 0 : 20,
      }}
    >
      <Brand compact={collapsed} />
    </Link>
  );
}

function Shell() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { data: user } = useQuery(myInfoQueryOptions());
  const mobile = useMediaQuery(MOBILE_QUERY);
  const [collapsed, setCollapsed] = useState(false);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [passwordOpen, setPasswordOpen] = useState(false);
  const location = useLocation();
  useLiveConnection();
  const visited = location.pathname + location.search;

  // The visited-path history (spec §2): Back buttons return to the page a page was opened from.
  useEffect(() => {
    recordVisit(visited);
  }, [visited]);

  if (!user) return <PageSpinner />;

  const closeDrawer = () => {
    setDrawerOpen(false);
  };

  return (
    <PageWatermark>
      <Layout style={{ minHeight: '100vh' }}>
        <CommonParamsLoader />
        {!mobile && (
          <Layout.Sider
            width={SIDER_WIDTH}
            collapsible
            collapsed={collapsed}
            trigger={null}
            style={{
              borderInlineEnd: `1px solid ${token.colorBorderSecondary}`,
              position: 'sticky',
              top: 0,
              height: '100vh',
              overflow: 'auto',
            }}
          >
            <nav aria-label={t('menu.navigation')}>
              <BrandLink collapsed={collapsed} />
              <SideMenu collapsed={collapsed} />
            </nav>
          </Layout.Sider>
        )}
        {mobile && (
          <Drawer
            placement="left"
            size={SIDER_WIDTH}
            open={drawerOpen}
            onClose={closeDrawer}
            closable={false}
            title={null}
            styles={{ body: { padding: 0 } }}
          >
            <nav aria-label={t('menu.navigation')}>
              <BrandLink collapsed={false} />
              <SideMenu onNavigate={closeDrawer} />
            </nav>
          </Drawer>
        )}
        <Layout>
          <Layout.Header
            style={{
              position: 'sticky',
              top: 0,
              zIndex: 10,
              display: 'flex',
              alignItems: 'center',
              gap: 12,
              height: HEADER_HEIGHT,
              lineHeight: `${String(HEADER_HEIGHT)}px`,
              paddingInline: mobile ? 8 : 16,
              borderBottom: `1px solid ${token.colorBorderSecondary}`,
            }}
          >
            {mobile ? (
              <Button
                type="text"
                icon={<MenuOutlined />}
                aria-label={t('shell.openMenu')}
                aria-expanded={drawerOpen}
                onClick={() => {
                  setDrawerOpen(true);
                }}
              />
            ) : (
              <Button
                type="text"
                icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
                aria-label={collapsed ? t('shell.expandMenu') : t('shell.collapseMenu')}
                aria-expanded={!collapsed}
                onClick={() => {
                  setCollapsed((value) => !value);
                }}
              />
            )}
            <div style={{ flex: 1, minWidth: 0 }}>
              <HeaderBreadcrumb />
            </div>
            <AlarmBell />
            <LiveIndicator compact={mobile} />
            <UserMenu
              user={user}
              compact={mobile}
              onChangePassword={() => {
                setPasswordOpen(true);
              }}
            />
          </Layout.Header>
          <Layout.Content style={{ padding: mobile ? 12 : 24 }}>
            <main>
              <Suspense fallback={<PageSpinner />}>
                <Outlet />
              </Suspense>
            </main>
          </Layout.Content>
        </Layout>
        <Modal
          title={t('userMenu.changePassword')}
          open={passwordOpen}
          footer={null}
          destroyOnHidden
          onCancel={() => {
            setPasswordOpen(false);
          }}
        >
          <ChangePasswordForm idPrefix="shell-password" />
        </Modal>
      </Layout>
    </PageWatermark>
  );
}

/** The signed-in layout: side navigation (a drawer under 750 px), header and content. */
export function AppShell() {
  return (
    <App>
      <Shell />
    </App>
  );
}
