/**
 * /sys/audit: the audit trail on the resource table — newest first, filtered by time range,
 * account, kind, record number (a record and what belongs to it: a History link opens the page
 * so), action and, for the platform administrator, tenant; searched by account, user, record or
 * address. A row's Details open the record before and after; the selection exports as CSV or
 * Excel in the user's language. The filters live in the address, so a History link or a reload
 * shows the same list.
 */
import { useMemo, useState } from 'react';
import { App, Button, Flex, Space, Typography } from 'antd';
import { DownloadOutlined, FileSearchOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { AUDIT_ACTION_NAMES, AUDIT_KIND_NAMES, type AuditEntryDto } from '@sluice/shared/audit.schema';
import { ResourceTable } from '../../../components/resource-table/resource-table';
import type { ResourceFilter, ResourceTableConfig } from '../../../components/resource-table/resource-types';
import { myInfoQueryOptions } from '../../../lib/current-user';
import { errorMessage } from '../../../lib/form-errors';
import type { QueryParams } from '../../../lib/api-client';
import { auditResource, exportAudit, useTenants } from '../api/audit-api';
import { AuditEntryDrawer } from '../components/audit-entry-drawer';
import { useAuditLabels } from '../components/audit-labels';

/** The list's filters as the address holds them (the resource table's names), as the export's parameters. */
const FILTER_PARAMS = ['Begin', 'End', 'Account', 'ResourceKind', 'ResourceId', 'Action', 'GroupId'];

function ExportButtons() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [searchParams] = useSearchParams();
  const [busy, setBusy] = useState<'csv' | 'xlsx'>();
  const run = async (format: 'csv' | 'xlsx') => {
    const params: QueryParams = {};
    for (const name of FILTER_PARAMS) {
      const value = searchParams.get(name);
      if (value) params[name] = value;
    }
    const search = searchParams.get('q');
    if (search) params.Search = search;
    const sort = searchParams.get('sort');
    if (sort) {
      params.OrderBy = sort;
      params.OrderType = searchParams.get('order') ?? 'asc';
    }
    setBusy(format);
    try {
      await exportAudit(format, params);
    } catch (error) {
      void message.error(t('audit.exportFailed', { message: errorMessage(error) }));
    } finally {
      setBusy(undefined);
    }
  };
  return (
    <Space.Compact>
      <Button icon={<DownloadOutlined aria-hidden />} loading={busy === 'csv'} onClick={() => void run('csv')}>
        {t('audit.exportCsv')}
      </Button>
      <Button icon={<DownloadOutlined aria-hidden />} loading={busy === 'xlsx'} onClick={() => void run('xlsx')}>
        {t('audit.exportExcel')}
      </Button>
    </Space.Compact>
  );
}

export function AuditPage() {
  const { t } = useTranslation();
  const labels = useAuditLabels();
  const [opened, setOpened] = useState<number>();
  const me = useQuery(myInfoQueryOptions());
  const platform = me.data?.IsPlatformAdmin === true;
  const tenants = useTenants(platform);

  const config = useMemo((): ResourceTableConfig<AuditEntryDto> => {
    const nameOf = (entry: AuditEntryDto) =>
      `${labels.action(entry.Action)} ${labels.kind(entry.ResourceKind)} ${entry.ResourceName || entry.ResourceId}`.trim();
    const filters: ResourceFilter[] = [
      { kind: 'dateRange', param: 'Begin', endParam: 'End', label: 'audit.range' },
      { kind: 'text', param: 'Account', label: 'audit.account' },
      {
        param: 'ResourceKind',
        label: 'audit.kind',
        allLabel: 'audit.allKinds',
        options: AUDIT_KIND_NAMES.map((kind) => ({ value: kind, text: labels.kind(kind) })),
      },
      { kind: 'text', param: 'ResourceId', label: 'audit.recordId' },
      {
        param: 'Action',
        label: 'audit.action',
        allLabel: 'audit.allActions',
        options: AUDIT_ACTION_NAMES.map((action) => ({ value: action, text: labels.action(action) })),
      },
      ...(platform
        ? [
            {
              param: 'GroupId',
              label: 'audit.tenant' as const,
              allLabel: 'audit.allTenants' as const,
              options: (tenants.data ?? []).map((group) => ({ value: group.Id, text: group.GroupName })),
            },
          ]
        : []),
    ];
    return {
      resource: auditResource,
      rowName: nameOf,
      search: { placeholder: 'audit.searchPlaceholder' },
      empty: 'audit.empty',
      defaultSort: { key: 'At', order: 'desc' },
      pageSize: 20,
      filters,
      columns: [
        { key: 'At', title: 'audit.time', sortKey: 'At', format: 'dateTime' },
        {
          key: 'who',
          title: 'audit.who',
          sortKey: 'Account',
          render: (entry) => (
            <Flex vertical>
              <span>{entry.Account || '—'}</span>
              {entry.UserName && entry.UserName !== entry.Account && (
                <Typography.Text type="secondary">{entry.UserName}</Typography.Text>
              )}
            </Flex>
          ),
        },
        { key: 'Address', title: 'audit.address', sortKey: 'Address', onCards: false },
        { key: 'Action', title: 'audit.action', sortKey: 'Action', render: (entry) => labels.action(entry.Action) },
        {
          key: 'record',
          title: 'audit.record',
          sortKey: 'ResourceKind',
          render: (entry) => (
            <Flex vertical>
              <span>{labels.kind(entry.ResourceKind)}</span>
              <Typography.Text type="secondary">
                {[entry.ResourceName, entry.ResourceId && `#${entry.ResourceId}`].filter(Boolean).join(' ')}
              </Typography.Text>
            </Flex>
          ),
        },
        {
          key: 'Changed',
          title: 'audit.changed',
          ellipsis: true,
          onCards: false,
          render: (entry) => entry.Changed.join(', ') || '—',
        },
        ...(platform ? [{ key: 'GroupName', title: 'audit.tenant' as const, onCards: false }] : []),
      ],
      rowActions: (entry) => (
        <Button
          type="link"
          size="small"
          icon={<FileSearchOutlined aria-hidden />}
          aria-label={t('audit.detailsOf', { name: nameOf(entry) })}
          onClick={() => {
            setOpened(entry.Id);
          }}
        >
          {t('audit.details')}
        </Button>
      ),
    };
  }, [labels, platform, tenants.data, t]);

  return (
    <>
      <ResourceTable
        config={config}
        title={t('routes.audit')}
        description={t('audit.description')}
        syncUrl
        readOnly
        toolbarExtra={<ExportButtons />}
      />
      <AuditEntryDrawer
        id={opened}
        onClose={() => {
          setOpened(undefined);
        }}
      />
    </>
  );
}
