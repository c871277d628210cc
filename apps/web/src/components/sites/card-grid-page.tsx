/**
 * The frame of a page of cards (projects, stations, devices): the heading with an add button, a
 * filter bar ending in the total, the cards in a responsive grid (a list to assistive technology)
 * with loading, failed (with a retry) and empty states, and the pages below.
 */
import type { Key, ReactElement, ReactNode } from 'react';
import { Button, Col, Flex, Pagination, Row, Segmented, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { QueryState, type QueryStatus } from '../query-state';

export const CARD_PAGE_SIZE = 12;

export type OnlineChoice = 'all' | '1' | '0';

/** The Online query parameter of a choice (none for all). */
export const onlineParam = (choice: OnlineChoice) => (choice === 'all' ? undefined : Number(choice));

/** All, online or offline. */
export function OnlineFilter({ value, onChange }: { value: OnlineChoice; onChange: (value: OnlineChoice) => void }) {
  const { t } = useTranslation();
  return (
    <Segmented<OnlineChoice>
      aria-label={t('devices.filters.state')}
      value={value}
      onChange={onChange}
      options={[
        { value: 'all', label: t('devices.filters.all') },
        { value: '1', label: t('map.state.online') },
        { value: '0', label: t('map.state.offline') },
      ]}
    />
  );
}

/** An icon button in a card's action bar: named for the card's record, it does not open the card. */
export function CardAction({
  label,
  icon,
  danger,
  onClick,
}: {
  label: string;
  icon: ReactNode;
  danger?: boolean;
  onClick: () => void;
}) {
  return (
    <Button
      type="text"
      size="small"
      danger={danger}
      icon={icon}
      aria-label={label}
      onClick={(event) => {
        event.stopPropagation();
        onClick();
      }}
    />
  );
}

export function CardGridPage<Item>({
  title,
  addLabel,
  onAdd,
  filters,
  filtersLabel,
  total,
  query,
  items,
  itemKey,
  renderCard,
  page,
  count,
  onPage,
  children,
}: {
  title: string;
  addLabel: string;
  /** Adds a record; omit to show no add button (a user who may not). */
  onAdd?: () => void;
  /** The filter bar's inputs. */
  filters: ReactNode;
  /** Makes the filter bar a search landmark of this name. */
  filtersLabel?: string;
  /** Said after the filters, politely announced as it changes (not while the call fails). */
  total: string;
  /** The query the cards come from: its loading and failed states are the page's. */
  query: QueryStatus;
  items: readonly Item[] | undefined;
  itemKey: (item: Item) => Key;
  renderCard: (item: Item) => ReactElement;
  page: number;
  count: number;
  onPage: (page: number) => void;
  /** The page's dialogs. */
  children?: ReactNode;
}) {
  return (
    <Flex vertical gap={16}>
      <Flex justify="space-between" align="center" gap={12} wrap>
        <Typography.Title level={1} style={{ fontSize: 20, margin: 0 }}>
          {title}
        </Typography.Title>
        {onAdd && (
          <Button type="primary" icon={<PlusOutlined />} onClick={onAdd}>
            {addLabel}
          </Button>
        )}
      </Flex>
      <Flex gap={12} wrap align="center" role={filtersLabel ? 'search' : undefined} aria-label={filtersLabel}>
        {filters}
        <Typography.Text type="secondary" aria-live="polite">
          {query.isError || query.isPending ? '' : total}
        </Typography.Text>
      </Flex>
      <QueryState query={query} empty={!items?.length}>
        <Row gutter={[16, 16]} role="list">
          {items?.map((item) => (
            <Col key={itemKey(item)} xs={24} sm={12} lg={8} xxl={6} role="listitem">
              {renderCard(item)}
            </Col>
          ))}
        </Row>
      </QueryState>
      <Pagination
        align="end"
        current={page}
        pageSize={CARD_PAGE_SIZE}
        total={count}
        onChange={onPage}
        showSizeChanger={false}
        hideOnSinglePage
      />
      {children}
    </Flex>
  );
}
