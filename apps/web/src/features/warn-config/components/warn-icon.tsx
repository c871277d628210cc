/** The icons a warn type may show, by name, and a preview of one (an unknown name shows as text). */
import {
  AlertOutlined,
  ApiOutlined,
  BellOutlined,
  CloseCircleOutlined,
  DisconnectOutlined,
  ExclamationCircleOutlined,
  FireOutlined,
  InfoCircleOutlined,
  ThunderboltOutlined,
  ToolOutlined,
  WarningOutlined,
} from '@ant-design/icons';
import type { ComponentType, CSSProperties } from 'react';

const ICONS: Record<string, ComponentType<{ style?: CSSProperties; 'aria-hidden'?: boolean }>> = {
  WarningOutlined,
  AlertOutlined,
  ExclamationCircleOutlined,
  CloseCircleOutlined,
  DisconnectOutlined,
  ToolOutlined,
  BellOutlined,
  ApiOutlined,
  ThunderboltOutlined,
  FireOutlined,
  InfoCircleOutlined,
};

export const WARN_ICON_NAMES = Object.keys(ICONS);

/** Short names (the demo data's 'warning', 'tool', 'disconnect'). */
const ALIASES: Record<string, string> = {
  alarm: 'AlertOutlined',
  warning: 'WarningOutlined',
  fault: 'ToolOutlined',
  tool: 'ToolOutlined',
  offline: 'DisconnectOutlined',
  disconnect: 'DisconnectOutlined',
};

export function WarnIcon({ name, color }: { name: string; color?: string }) {
  const Icon = ICONS[name] ?? ICONS[ALIASES[name.toLowerCase()] ?? ''];
  if (!Icon) return null;
  return <Icon aria-hidden style={{ fontSize: 18, color: color || undefined }} />;
}
