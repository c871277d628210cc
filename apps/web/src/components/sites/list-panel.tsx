/**
 * The pieces of the home page's list panel that the sites and devices features share: a node's
 * header (breadcrumb after "All projects", Back, the title and its state), the heading above its
 * children with their add button, and one linked item of a list.
 */
import type { ReactNode } from 'react';
import { Breadcrumb, Button, Flex, List, Typography } from 'antd';
import { ArrowLeftOutlined, PlusOutlined } from '@ant-design/icons';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { HOME_PATH } from '../../lib/paths';
import './site-items.css';

export interface Crumb {
  key: string;
  label: string;
  to?: string;
}

export function ListPanelHeader({
  crumbs,
  back,
  title,
  extra,
}: {
  /** The way here after "All projects". */
  crumbs: Crumb[];
  back: string;
  title: string;
  extra?: ReactNode;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Flex vertical gap={8}>
      <nav aria-label={t('home.location')}>
        <Breadcrumb
          items={[{ key: 'all', label: t('home.allProjects'), to: HOME_PATH }, ...crumbs].map((c) => ({
            key: c.key,
            title: c.to ? <Link to={c.to}>{c.label}</Link> : c.label,
          }))}
        />
      </nav>
      <Flex align="center" gap={8}>
        <Button
          icon={<ArrowLeftOutlined />}
          aria-label={t('home.back')}
          onClick={() => {
            void navigate(back);
          }}
        >
          {t('home.back')}
        </Button>
        <Typography.Title level={2} style={{ fontSize: 18, margin: 0, flex: 1, minWidth: 0 }} ellipsis={{ tooltip: title }}>
          {title}
        </Typography.Title>
        {extra}
      </Flex>
    </Flex>
  );
}

/** Above a node's stations or devices: their heading (with the count) and the add button. */
export function ChildrenHeading({
  title,
  addLabel,
  onAdd,
}: {
  title: string;
  addLabel: string;
  /** Omit to show no add button (a user who may not). */
  onAdd?: () => void;
}) {
  return (
    <Flex justify="space-between" align="center">
      <Typography.Title level={3} style={{ fontSize: 15, margin: 0 }}>
        {title}
      </Typography.Title>
      {onAdd && (
        <Button size="small" icon={<PlusOutlined />} onClick={onAdd}>
          {addLabel}
        </Button>
      )}
    </Flex>
  );
}

/** One item of a list: a link to its node, its name and state, and a line of details. */
export function ListPanelItem({
  to,
  data,
  name,
  state,
  details,
}: {
  to: string;
  /** data-* attributes naming the item. */
  data: Record<`data-${string}`, string | number>;
  name: string;
  state: ReactNode;
  details: ReactNode;
}) {
  return (
    <List.Item style={{ paddingInline: 4 }}>
      <Link to={to} className="sluice-home-item" {...data}>
        <Flex justify="space-between" gap={8} align="center">
          <Typography.Text strong ellipsis={{ tooltip: name }}>
            {name}
          </Typography.Text>
          {state}
        </Flex>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {details}
        </Typography.Text>
      </Link>
    </List.Item>
  );
}
