/**
 * The icons a menu's Icon field may name (Ant Design icon names). Only these are bundled; an
 * unknown name shows the generic icon.
 */
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

/** The icon of a menu; decorative (the label names the item). */
export function MenuIcon({ name }: { name: string | undefined }) {
  const Icon = (name && Object.hasOwn(MENU_ICONS, name) ? MENU_ICONS[name] : undefined) ?? AppstoreOutlined;
  return <Icon aria-hidden />;
}

/** The icon as an element, for Ant Design props that style the element they get (Menu's icon). */
export function menuIconElement(name: string | undefined) {
  const Icon = (name && Object.hasOwn(MENU_ICONS, name) ? MENU_ICONS[name] : undefined) ?? AppstoreOutlined;
  return <Icon aria-hidden />;
}
