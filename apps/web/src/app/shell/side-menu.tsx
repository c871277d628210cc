import type { ComponentType } from 'react';
import { Menu, type MenuProps } from 'antd';
import {
  AppstoreOutlined,
  BellOutlined,
  ClusterOutlined,
  DeleteOutlined,
  EnvironmentOutlined,
  HomeOutlined,
  ProjectOutlined,
  SafetyCertificateOutlined,
  SettingOutlined,
  TeamOutlined,
} from '@ant-design/icons';
import { Link, useMatches } from 'react-router';
import { useTranslation } from 'react-i18next';
import { currentHandle } from '../route-handle';
import { menuTrail, visibleMenu, type MenuNode } from '../routes';

const icons: Record<string, ComponentType> = {
  '/common/home': HomeOutlined,
  '/common/app/project': ProjectOutlined,
  '/common/app/station': EnvironmentOutlined,
  '/common/app/device': ClusterOutlined,
  notice: BellOutlined,
  user: TeamOutlined,
  jurisdiction: SafetyCertificateOutlined,
  sys: SettingOutlined,
  device: DeleteOutlined,
};

function iconFor(key: string) {
  const Icon = icons[key] ?? AppstoreOutlined;
  return <Icon />;
}

interface SideMenuProps {
  isAdmin: boolean;
  collapsed?: boolean;
  onNavigate?: () => void;
}

/** The side navigation of spec §2, built from the route table's menu. */
export function SideMenu({ isAdmin, collapsed = false, onNavigate }: SideMenuProps) {
  const { t } = useTranslation();
  const handle = currentHandle(useMatches());
  const trail = handle ? menuTrail(handle.routeId) : {};

  const toItem = (node: MenuNode): NonNullable<MenuProps['items']>[number] => {
    if (node.kind === 'item') {
      return {
        key: node.key,
        icon: node.key in icons ? iconFor(node.key) : undefined,
        label: (
          <Link to={node.to} onClick={onNavigate}>
            {t(node.labelKey)}
          </Link>
        ),
      };
    }
    return { key: node.key, icon: iconFor(node.key), label: t(node.labelKey), children: node.children.map(toItem) };
  };

  return (
    <Menu
      mode="inline"
      inlineCollapsed={collapsed}
      selectedKeys={trail.item ? [trail.item.key] : []}
      defaultOpenKeys={trail.group ? [trail.group.key] : []}
      items={visibleMenu(isAdmin).map(toItem)}
      style={{ borderInlineEnd: 'none', background: 'transparent' }}
    />
  );
}
