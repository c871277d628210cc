/**
 * The icons a menu's Icon field may name (Ant Design icon names). Only these are bundled; an
 * unknown name shows the generic icon.
 */
import { createElement } from 'react';
import {
  AlertOutlined,
  ApiOutlined,
  AppstoreOutlined,
  AreaChartOutlined,
  BarChartOutlined,
  BellOutlined,
  CloudOutlined,
  ClusterOutlined,
  ControlOutlined,
  DashboardOutlined,
  DatabaseOutlined,
  DeleteOutlined,
  DeploymentUnitOutlined,
  EnvironmentOutlined,
  ExperimentOutlined,
  FileTextOutlined,
  FolderOutlined,
  GlobalOutlined,
  HomeOutlined,
  LineChartOutlined,
  LinkOutlined,
  MobileOutlined,
  PieChartOutlined,
  ProjectOutlined,
  SafetyCertificateOutlined,
  SafetyOutlined,
  SettingOutlined,
  TableOutlined,
  TagsOutlined,
  TeamOutlined,
  ToolOutlined,
  UserOutlined,
  VideoCameraOutlined,
  WarningOutlined,
} from '@ant-design/icons';

export const MENU_ICONS: Record<string, typeof AppstoreOutlined> = {
  AlertOutlined,
  ApiOutlined,
  AppstoreOutlined,
  AreaChartOutlined,
  BarChartOutlined,
  BellOutlined,
  CloudOutlined,
  ClusterOutlined,
  ControlOutlined,
  DashboardOutlined,
  DatabaseOutlined,
  DeleteOutlined,
  DeploymentUnitOutlined,
  EnvironmentOutlined,
  ExperimentOutlined,
  FileTextOutlined,
  FolderOutlined,
  GlobalOutlined,
  HomeOutlined,
  LineChartOutlined,
  LinkOutlined,
  MobileOutlined,
  PieChartOutlined,
  ProjectOutlined,
  SafetyCertificateOutlined,
  SafetyOutlined,
  SettingOutlined,
  TableOutlined,
  TagsOutlined,
  TeamOutlined,
  ToolOutlined,
  UserOutlined,
  VideoCameraOutlined,
  WarningOutlined,
};

export const MENU_ICON_NAMES = Object.keys(MENU_ICONS);

export function isKnownIcon(name: string | undefined): boolean {
  return name !== undefined && Object.hasOwn(MENU_ICONS, name);
}

// The names are listed twice, as imports and as keys, so that only these icons are bundled.

function iconOf(name: string | undefined): typeof AppstoreOutlined {
  return (name && Object.hasOwn(MENU_ICONS, name) ? MENU_ICONS[name] : undefined) ?? AppstoreOutlined;
}

/** The icon as an element, for Ant Design props that style the element they get (Menu's icon); decorative. */
export function menuIconElement(name: string | undefined) {
  return createElement(iconOf(name), { 'aria-hidden': true });
}

/** The icon of a menu; decorative (the label names the item). */
export function MenuIcon({ name }: { name: string | undefined }) {
  return menuIconElement(name);
}
