/**
 * An icon field shown as its icon: a menu's Ant Design icon name, a short name such as the demo's
 * warn types and device types use ("warning", "pump"), or an image address; the stored name
 * follows in small text so an administrator still sees what to type. An unknown name shows as
 * text only, never as a misleading generic icon.
 */
import { createElement, type ComponentType } from 'react';
import { Flex, Typography } from 'antd';
import {
  AlertOutlined,
  ClusterOutlined,
  DashboardOutlined,
  DisconnectOutlined,
  ExperimentOutlined,
  FilterOutlined,
  SyncOutlined,
  ThunderboltOutlined,
  ToolOutlined,
  WarningOutlined,
} from '@ant-design/icons';
import { MENU_ICONS } from './menu-icon';

/** Short names stored in icon fields, by what they show. */
const SHORT_NAMES: Record<string, ComponentType<{ 'aria-hidden'?: boolean; style?: React.CSSProperties }>> = {
  warning: WarningOutlined,
  alarm: AlertOutlined,
  tool: ToolOutlined,
  fault: ToolOutlined,
  disconnect: DisconnectOutlined,
  offline: DisconnectOutlined,
  station: ClusterOutlined,
  pump: SyncOutlined,
  blower: ThunderboltOutlined,
  dosing: ExperimentOutlined,
  analyser: ExperimentOutlined,
  analyzer: ExperimentOutlined,
  flow: DashboardOutlined,
  filter: FilterOutlined,
};

const isImage = (name: string) => /^(\/|https?:\/\/|data:image\/)/.test(name);

/** The icon a stored name stands for, or undefined. */
export function iconFor(
  name: string | undefined,
): ComponentType<{ 'aria-hidden'?: boolean; style?: React.CSSProperties }> | undefined {
  if (!name) return undefined;
  if (Object.hasOwn(MENU_ICONS, name)) return MENU_ICONS[name];
  const short = name.trim().toLowerCase();
  return Object.hasOwn(SHORT_NAMES, short) ? SHORT_NAMES[short] : undefined;
}

/** The icon of a stored name as an element (decorative), or null. */
export function iconElement(name: string | undefined, size: number) {
  const icon = iconFor(name);
  return icon ? createElement(icon, { 'aria-hidden': true, style: { fontSize: size } }) : null;
}

export function IconName({ name, size = 16 }: { name: string | undefined; size?: number }) {
  if (!name) return <Typography.Text type="secondary">—</Typography.Text>;
  return (
    <Flex gap={6} align="center" title={name}>
      {isImage(name) ? (
        <img src={name} alt="" width={size} height={size} style={{ objectFit: 'contain' }} />
      ) : (
        iconElement(name, size)
      )}
      <Typography.Text type="secondary" style={{ fontSize: 12, overflowWrap: 'anywhere' }}>
        {isImage(name) ? name.split('/').pop() : name}
      </Typography.Text>
    </Flex>
  );
}
