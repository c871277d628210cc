/**
 * A record before and after a change, field by field: the fields that changed first and marked
 * (the old value on the error colour, the new one on the success colour of the theme, so both
 * themes read), the others behind a switch. A create has no before, a delete no after. Secrets
 * arrive masked and say so. Under 750 px each field is a small card, before above after.
 */
import { useState, type ReactNode } from 'react';
import { Alert, Card, Flex, Switch, Table, Tag, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { AUDIT_MASK } from '@sluice/shared/audit.schema';
import { MOBILE_QUERY, useMediaQuery } from '../../../lib/use-media-query';

export interface AuditDiffProps {
  before: unknown;
  after: unknown;
  /** The keys whose values changed (the server compared them before masking). */
  changed: string[];
}

interface FieldRow {
  key: string;
  before: unknown;
  after: unknown;
  changed: boolean;
}

const asRecord = (value: unknown): Record<string, unknown> | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

const scalar = (value: unknown): value is string | number | boolean =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

/** A value as text a person reads: lists of words joined, other structures as indented JSON. */
function Value({ value }: { value: unknown }) {
  const { t } = useTranslation();
  if (value === null || value === undefined || value === '')
    return <Typography.Text type="secondary">{t('audit.nothing')}</Typography.Text>;
  if (value === AUDIT_MASK)
    return (
      <span>
        <Tag>{t('audit.secret')}</Tag>
        {AUDIT_MASK}
      </span>
    );
  if (typeof value === 'boolean') return <span>{value ? t('common.yes') : t('common.no')}</span>;
  if (scalar(value)) return <span style={{ overflowWrap: 'anywhere' }}>{String(value)}</span>;
  if (Array.isArray(value) && value.every(scalar)) return <span style={{ overflowWrap: 'anywhere' }}>{value.join(', ')}</span>;
  return (
    <pre style={{ margin: 0, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', fontSize: 12, maxHeight: 240, overflow: 'auto' }}>
      {JSON.stringify(value, null, 2)}
    </pre>
  );
}

/** The fields of the two sides, in the record's order (after's first, then those only before had). */
function fieldRows(before: Record<string, unknown> | undefined, after: Record<string, unknown> | undefined, changed: string[]) {
  const keys = [...new Set([...Object.keys(after ?? {}), ...Object.keys(before ?? {})])];
  return keys.map((key): FieldRow => ({ key, before: before?.[key], after: after?.[key], changed: changed.includes(key) }));
}

export function AuditDiff({ before, after, changed }: AuditDiffProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const mobile = useMediaQuery(MOBILE_QUERY);
  const b = asRecord(before);
  const a = asRecord(after);
  const rows = fieldRows(b, a, changed);
  const anyChanged = rows.some((row) => row.changed);
  const [showAll, setShowAll] = useState(!anyChanged);
  const shown = (showAll ? rows : rows.filter((row) => row.changed)).sort((x, y) => Number(y.changed) - Number(x.changed));
  const hasBefore = before !== null && before !== undefined;
  const hasAfter = after !== null && after !== undefined;

  if (!hasBefore && !hasAfter) return <Alert type="info" showIcon title={t('audit.noRecord')} />;
  // A value that is not a record (a list, say): the two sides whole.
  if ((hasBefore && !b) || (hasAfter && !a)) {
    return (
      <Flex vertical gap={8}>
        <Typography.Text strong>{t('audit.before')}</Typography.Text>
        <Value value={before} />
        <Typography.Text strong>{t('audit.after')}</Typography.Text>
        <Value value={after} />
      </Flex>
    );
  }

  const side = (row: FieldRow, which: 'before' | 'after'): ReactNode => <Value value={row[which]} />;
  const tint = (row: FieldRow, which: 'before' | 'after') =>
    row.changed ? { background: which === 'before' ? token.colorErrorBg : token.colorSuccessBg } : undefined;
  const fieldName = (row: FieldRow) => (
    <Flex gap={6} wrap align="center">
      <Typography.Text code>{row.key}</Typography.Text>
      {row.changed && hasBefore && hasAfter && <Tag color="warning">{t('audit.changedTag')}</Tag>}
    </Flex>
  );

  const header = (
    <Flex vertical gap={8}>
      {!hasBefore && <Alert type="success" showIcon title={t('audit.created')} />}
      {!hasAfter && <Alert type="warning" showIcon title={t('audit.deleted')} />}
      {hasBefore && hasAfter && !anyChanged && <Alert type="info" showIcon title={t('audit.noChange')} />}
      {anyChanged && rows.some((row) => !row.changed) && (
        <label style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
          <Switch
            size="small"
            checked={showAll}
            onChange={(checked) => {
              setShowAll(checked);
            }}
          />
          {t('audit.showUnchanged')}
        </label>
      )}
    </Flex>
  );

  if (mobile) {
    return (
      <Flex vertical gap={8}>
        {header}
        {shown.map((row) => (
          <Card key={row.key} size="small" title={fieldName(row)}>
            <Flex vertical gap={4}>
              {hasBefore && (
                <div style={{ ...tint(row, 'before'), padding: 4, borderRadius: token.borderRadiusSM }}>
                  <Typography.Text type="secondary">{t('audit.before')}: </Typography.Text>
                  {side(row, 'before')}
                </div>
              )}
              {hasAfter && (
                <div style={{ ...tint(row, 'after'), padding: 4, borderRadius: token.borderRadiusSM }}>
                  <Typography.Text type="secondary">{t('audit.after')}: </Typography.Text>
                  {side(row, 'after')}
                </div>
              )}
            </Flex>
          </Card>
        ))}
      </Flex>
    );
  }

  return (
    <Flex vertical gap={8}>
      {header}
      <Table<FieldRow>
        rowKey="key"
        size="small"
        pagination={false}
        dataSource={shown}
        columns={[
          { key: 'field', title: t('audit.field'), render: (_v, row) => fieldName(row), width: 200 },
          ...(hasBefore
            ? [
                {
                  key: 'before',
                  title: t('audit.before'),
                  render: (_v: unknown, row: FieldRow) => side(row, 'before'),
                  onCell: (row: FieldRow) => ({ style: tint(row, 'before') }),
                },
              ]
            : []),
          ...(hasAfter
            ? [
                {
                  key: 'after',
                  title: t('audit.after'),
                  render: (_v: unknown, row: FieldRow) => side(row, 'after'),
                  onCell: (row: FieldRow) => ({ style: tint(row, 'after') }),
                },
              ]
            : []),
        ]}
      />
    </Flex>
  );
}
