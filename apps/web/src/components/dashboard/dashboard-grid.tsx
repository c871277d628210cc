/**
 * Panels on a 12-column grid (spec §2 Home panels): each at its saved place or its type's default
 * size, dragged by its title and resized by its corner by a user who may arrange, or moved and
 * sized from its menu with the keyboard. Each panel has a menu, also on right-click: refresh,
 * full screen, hide (and the moves); hidden panels come back from the toolbar. Up to 767 px wide
 * the panels stack in one column, in the order a phone user needs them (faults, values, control,
 * facts, media, map, settings), and are not dragged.
 */
import { useMemo, useState, type ReactNode } from 'react';
import { Button, Card, Dropdown, Flex, Modal, Typography, type MenuProps } from 'antd';
import {
  CompressOutlined,
  EyeInvisibleOutlined,
  EyeOutlined,
  FullscreenOutlined,
  HolderOutlined,
  MoreOutlined,
  ReloadOutlined,
  UndoOutlined,
} from '@ant-design/icons';
import ReactGridLayout, { useContainerWidth } from 'react-grid-layout';
import { useTranslation } from 'react-i18next';
import {
  GRID_COLUMNS,
  GRID_MARGIN,
  GRID_ROW_HEIGHT,
  mergeLayout,
  stackOrder,
  type LayoutItem,
  type PanelCode,
} from '@sluice/shared/panel-layout';
import { useMediaQuery } from '../../lib/use-media-query';
import { LAYOUT_MOVES, applyMove, sameLayout, setHidden, withPlaces, type LayoutMove } from './layout-moves';
import 'react-grid-layout/css/styles.css';
import './dashboard.css';

export interface DashboardPanel {
  key: string;
  code: PanelCode;
  title: string;
  content: ReactNode;
  /** Fetches the panel's data again (the menu's Refresh); none: the panel has nothing to refresh. */
  onRefresh?: () => void;
}

/** Up to this width the panels stack (spec §2 breakpoints: 767 px and below is a phone). */
export const STACK_QUERY = '(max-width: 767px)';

function PanelCard({
  panel,
  mayArrange,
  stacked,
  onAction,
}: {
  panel: DashboardPanel;
  mayArrange: boolean;
  stacked: boolean;
  onAction: (action: string) => void;
}) {
  const { t } = useTranslation();
  const items: MenuProps['items'] = [
    ...(panel.onRefresh ? [{ key: 'refresh', icon: <ReloadOutlined aria-hidden />, label: t('dashboard.refresh') }] : []),
    { key: 'fullScreen', icon: <FullscreenOutlined aria-hidden />, label: t('dashboard.fullScreen') },
    { key: 'hide', icon: <EyeInvisibleOutlined aria-hidden />, label: t('dashboard.hide') },
    ...(mayArrange && !stacked
      ? [{ type: 'divider' as const }, ...LAYOUT_MOVES.map((move) => ({ key: move, label: t(`dashboard.${move}`) }))]
      : []),
  ];
  const menu: MenuProps = {
    items,
    onClick: ({ key }) => {
      onAction(key);
    },
  };
  return (
    <Dropdown menu={menu} trigger={['contextMenu']}>
      <Card
        size="small"
        className="sluice-panel"
        role="region"
        aria-label={panel.title}
        data-panel={panel.key}
        title={
          <span className={mayArrange && !stacked ? 'sluice-panel-handle sluice-panel-draggable' : 'sluice-panel-handle'}>
            {mayArrange && !stacked ? <HolderOutlined aria-hidden className="sluice-panel-grip" /> : null}
            <Typography.Text strong ellipsis>
              {panel.title}
            </Typography.Text>
          </span>
        }
        extra={
          <Dropdown menu={menu} trigger={['click']}>
            <Button
              type="text"
              size="small"
              icon={<MoreOutlined />}
              aria-label={t('dashboard.panelMenu', { name: panel.title })}
            />
          </Dropdown>
        }
      >
        {panel.content}
      </Card>
    </Dropdown>
  );
}

export function DashboardGrid({
  panels,
  saved,
  mayArrange,
  onSave,
  label,
}: {
  panels: DashboardPanel[];
  /** The account's saved layout (null: the default). */
  saved: readonly LayoutItem[] | null | undefined;
  /** The user may drag, size, and keep the arrangement; others may still hide a panel for the visit. */
  mayArrange: boolean;
  /** Keeps a layout the user made; an empty one goes back to the default. */
  onSave: (layout: LayoutItem[]) => void;
  label: string;
}) {
  const { t } = useTranslation();
  const stacked = useMediaQuery(STACK_QUERY);
  const { width, containerRef } = useContainerWidth();
  const shape = useMemo(() => panels.map(({ key, code }) => ({ key, code })), [panels]);
  const shapeKey = shape.map((p) => `${p.key}:${p.code}`).join(',');
  // A saved layout that arrives, or panels added or removed, place the panels again.
  const source = `${shapeKey}|${JSON.stringify(saved ?? null)}`;
  const [placed, setPlaced] = useState(() => ({ source, layout: mergeLayout(shape, saved) }));
  let layout = placed.layout;
  if (placed.source !== source) {
    layout = mergeLayout(shape, saved);
    setPlaced({ source, layout });
  }
  const setLayout = (next: LayoutItem[]) => {
    setPlaced({ source, layout: next });
  };
  const [fullScreen, setFullScreen] = useState<string>();

  const commit = (next: LayoutItem[]) => {
    if (sameLayout(next, layout)) return;
    setLayout(next);
    if (mayArrange) onSave(next);
  };

  const act = (key: string, action: string) => {
    const panel = panels.find((p) => p.key === key);
    if (action === 'refresh') panel?.onRefresh?.();
    else if (action === 'fullScreen') setFullScreen(key);
    else if (action === 'hide') commit(setHidden(layout, key, true));
    else if ((LAYOUT_MOVES as readonly string[]).includes(action)) commit(applyMove(layout, key, action as LayoutMove));
  };

  const hiddenKeys = new Set(layout.filter((item) => item.hidden).map((item) => item.i));
  const visible = panels.filter((p) => !hiddenKeys.has(p.key));
  const hidden = panels.filter((p) => hiddenKeys.has(p.key));
  const shown = fullScreen ? panels.find((p) => p.key === fullScreen) : undefined;
  const card = (panel: DashboardPanel) => (
    <PanelCard
      panel={panel}
      mayArrange={mayArrange}
      stacked={stacked}
      onAction={(action) => {
        act(panel.key, action);
      }}
    />
  );

  return (
    <section className="sluice-dashboard" aria-label={label}>
      <Flex gap={8} wrap align="center" justify="space-between" className="sluice-dashboard-toolbar">
        {mayArrange && !stacked ? (
          <Typography.Text type="secondary" className="sluice-dashboard-hint">
            {t('dashboard.arrangeHint')}
          </Typography.Text>
        ) : (
          <span />
        )}
        <Flex gap={8} wrap>
          {hidden.length > 0 ? (
            <Dropdown
              trigger={['click']}
              menu={{
                items: hidden.map((p) => ({
                  key: p.key,
                  icon: <EyeOutlined aria-hidden />,
                  label: t('dashboard.show', { name: p.title }),
                })),
                onClick: ({ key }) => {
                  commit(setHidden(layout, key, false));
                },
              }}
            >
              <Button size="small" icon={<EyeInvisibleOutlined aria-hidden />}>
                {t('dashboard.hidden', { count: hidden.length })}
              </Button>
            </Dropdown>
          ) : null}
          {mayArrange && saved && saved.length > 0 ? (
            <Button
              size="small"
              icon={<UndoOutlined aria-hidden />}
              onClick={() => {
                onSave([]);
              }}
            >
              {t('dashboard.reset')}
            </Button>
          ) : null}
        </Flex>
      </Flex>
      <div ref={containerRef}>
        {stacked ? (
          <Flex vertical gap={12} className="sluice-dashboard-stack">
            {stackOrder(visible, layout).map((p) => (
              <div key={p.key} className="sluice-dashboard-stack-item">
                {card(p)}
              </div>
            ))}
          </Flex>
        ) : (
          <ReactGridLayout
            width={width}
            layout={layout.filter((item) => !item.hidden)}
            gridConfig={{
              cols: GRID_COLUMNS,
              rowHeight: GRID_ROW_HEIGHT,
              margin: [GRID_MARGIN, GRID_MARGIN],
              containerPadding: [0, 0],
            }}
            dragConfig={{ enabled: mayArrange, handle: '.sluice-panel-draggable', cancel: 'button, a, input, textarea' }}
            resizeConfig={{ enabled: mayArrange }}
            onDragStop={(places) => {
              commit(withPlaces(layout, places));
            }}
            onResizeStop={(places) => {
              commit(withPlaces(layout, places));
            }}
            onLayoutChange={(places) => {
              // The grid's own packing (after a panel is hidden or moved by the keyboard), kept without saving.
              setPlaced((current) => ({ ...current, layout: withPlaces(current.layout, places) }));
            }}
          >
            {visible.map((panel) => (
              <div key={panel.key} className="sluice-dashboard-item">
                {card(panel)}
              </div>
            ))}
          </ReactGridLayout>
        )}
      </div>
      <Modal
        open={shown !== undefined}
        title={shown?.title}
        footer={null}
        width="100%"
        style={{ top: 0, paddingBottom: 0, maxWidth: '100vw' }}
        className="sluice-panel-full"
        closeIcon={<CompressOutlined aria-label={t('common.close')} />}
        onCancel={() => {
          setFullScreen(undefined);
        }}
        destroyOnHidden
      >
        {shown?.content}
      </Modal>
    </section>
  );
}
