/**
 * The console's one list screen: a paged, searchable, sortable table of a resource (server-side
 * paging with PageNo/PageSize, sorting with OrderBy/OrderType, a debounced Search), filters,
 * add and edit dialogs, delete after confirmation, row actions, and loading, empty and error
 * states; under 750 px the rows become cards. See apps/web/README.md, "Resource screens".
 */
import { useEffect, useMemo, useRef, useState, type Key, type ReactNode } from 'react';
import { useEmptyGuide } from './empty-guide';
import {
  App,
  Button,
  Card,
  Collapse,
  Descriptions,
  Empty,
  Flex,
  Input,
  Pagination,
  Select,
  Space,
  Table,
  Typography,
} from 'antd';
import type { TableColumnsType, TableProps } from 'antd';
import { DeleteOutlined, EditOutlined, PlusOutlined, ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { QueryParams } from '../../lib/api-client';
import { errorMessage } from '../../lib/form-errors';
import { QueryError } from '../query-state';
import { myInfoQueryOptions } from '../../lib/current-user';
import { mayOperate, useMayOperate } from '../../lib/operates';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { MOBILE_QUERY, NARROW_QUERY, useMediaQuery } from '../../lib/use-media-query';
import { useChoiceLabel } from './form-field';
import { ResourceFormDialog, type FormDialogState } from './resource-form-dialog';
import {
  filterParamsOf,
  type ResourceColumn,
  type ResourceTableConfig,
  type RowAction,
  type RowActionHelpers,
  type RowBase,
} from './resource-types';
import { FilterControl } from './filter-control';
import { useReorder } from './use-reorder';
import { useResourceContext } from './use-resource-context';
import { useTableState, type SortState } from './use-table-state';
import { StoredName } from '../stored-name';
import { DATE_TIME_WIDTH, DATE_WIDTH, DateTimeText, ELLIPSIS_WIDTH, EllipsisText, EmptyCell, ValueWithUnit } from '../cells';

export interface ResourceTableProps<Row extends RowBase> {
  config: ResourceTableConfig<Row>;
  /** The heading (already translated); omit for a table inside another screen. */
  title?: ReactNode;
  headingLevel?: 1 | 2 | 3 | 4;
  /** A line under the heading. */
  description?: ReactNode;
  /** Shown between the toolbar and the list (a panel of rows waiting for a decision, say). */
  beforeList?: ReactNode;
  /** Fixed query parameters of the list call (a module's operates: { ModuleId }). */
  params?: QueryParams;
  /** Keep page, search, sort and filters in the address (for a screen's main list). */
  syncUrl?: boolean;
  /** Smaller, for a table inside another (a module's operates). */
  compact?: boolean;
  /** Extra toolbar content, before the add button. */
  toolbarExtra?: ReactNode;
  /** Values every new record starts with (a module's operates: its ModuleId). */
  createPreset?: Record<string, unknown>;
  /**
   * Hides add, edit, delete and reorder. They are hidden anyway from a user who lacks the
   * resource's `operate` (the server refuses them too).
   */
  readOnly?: boolean;
  /** Values of the {name} placeholders in the resource's paths (a parent's id: { typeId: 5 }). */
  pathParams?: Record<string, string | number>;
}

type TreeRow<Row> = Row & { children?: TreeRow<Row>[] };

function flattenTree<Row>(rows: TreeRow<Row>[], depth = 0): { row: Row; depth: number }[] {
  return rows.flatMap((row) => [{ row, depth }, ...flattenTree(row.children ?? [], depth + 1)]);
}

type ChoiceLabel = ReturnType<typeof useChoiceLabel>;

/** A cell's content: the column's render, else its field as a date, a choice's label, a number with its unit, or text. */
function cellOf<Row extends RowBase>(column: ResourceColumn<Row>, row: Row, choiceLabel: ChoiceLabel): ReactNode {
  if (column.render) return column.render(row);
  const value = (row as unknown as Record<string, unknown>)[column.field ?? column.key];
  if (value === undefined || value === null || value === '') return <EmptyCell />;
  if (column.format && (typeof value === 'number' || typeof value === 'string'))
    return <DateTimeText value={value} date={column.format === 'date'} />;
  const text =
    typeof value === 'string'
      ? value
      : typeof value === 'number' || typeof value === 'boolean'
        ? String(value)
        : JSON.stringify(value);
  if (column.options) {
    const choice = column.options.find((option) => option.value === value || String(option.value) === text);
    return choice ? choiceLabel(choice) : text;
  }
  if (column.unit !== undefined) {
    const unit = typeof column.unit === 'function' ? column.unit(row) : column.unit;
    return <ValueWithUnit value={text} unit={unit} />;
  }
  if (typeof value === 'string') return <StoredName text={value} />;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** A column's width when it gives none: a date's or a date and time's, and a cut text's (without one it would not be cut). */
function defaultWidth<Row extends RowBase>(column: ResourceColumn<Row>): number | undefined {
  if (column.format === 'dateTime') return DATE_TIME_WIDTH;
  if (column.format === 'date') return DATE_WIDTH;
  return column.ellipsis ? ELLIPSIS_WIDTH : undefined;
}

/** In the table, an ellipsis column's cell is cut to its width and shown whole in a tooltip. */
function tableCellOf<Row extends RowBase>(column: ResourceColumn<Row>, row: Row, choiceLabel: ChoiceLabel): ReactNode {
  const cell = cellOf(column, row, choiceLabel);
  return column.ellipsis ? <EllipsisText>{cell}</EllipsisText> : cell;
}

export function ResourceTable<Row extends RowBase>({
  config,
  title,
  headingLevel = 1,
  description,
  beforeList,
  params,
  syncUrl = false,
  compact = false,
  toolbarExtra,
  createPreset,
  readOnly: readOnlyProp = false,
  pathParams,
}: ResourceTableProps<Row>) {
  const { t } = useTranslation();
  const guide = useEmptyGuide();
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const groupCtx = useResourceContext();
  const pathKey = pathParams ? JSON.stringify(pathParams) : '';
  const ctx = useMemo(
    () => (pathKey ? { ...groupCtx, path: JSON.parse(pathKey) as Record<string, string | number> } : groupCtx),
    [groupCtx, pathKey],
  );
  const mobile = useMediaQuery(MOBILE_QUERY);
  const narrow = useMediaQuery(NARROW_QUERY);
  const choiceLabel = useChoiceLabel();
  const { resource, form } = config;
  const mayWrite = useMayOperate(resource.operate);
  const readOnly = readOnlyProp || !mayWrite;
  const paged = resource.paging === 'server';
  const filterParams = useMemo(() => (config.filters ?? []).flatMap(filterParamsOf), [config.filters]);
  const table = useTableState({ syncUrl, pageSize: config.pageSize ?? 10, defaultSort: config.defaultSort, filterParams });
  const { state } = table;

  // The search box: typed text, sent once typing pauses.
  const [text, setText] = useState(state.search);
  const debounced = useDebouncedValue(text.trim(), 300);
  const committed = useRef(state.search);
  useEffect(() => {
    committed.current = state.search;
  }, [state.search]);
  const { setSearch } = table;
  useEffect(() => {
    if (debounced !== committed.current) setSearch(debounced);
  }, [debounced, setSearch]);

  const listParams = useMemo<QueryParams>(() => {
    const query: QueryParams = {};
    if (paged) {
      query.PageNo = state.page;
      query.PageSize = state.pageSize;
    }
    if (config.search && state.search) query.Search = state.search;
    if (state.sort) {
      query.OrderBy = state.sort.key;
      query.OrderType = state.sort.order;
    }
    for (const [name, value] of Object.entries(state.filters)) if (value !== undefined && value !== '') query[name] = value;
    return { ...query, ...params };
  }, [paged, state, config.search, params]);

  // The group is known once the current user is (always, inside the signed-in shell).
  const query = useQuery({
    ...resource.listQueryOptions(ctx, listParams),
    enabled: ctx.groupId > 0,
    refetchInterval: config.refreshMs ?? false,
  });
  const fetched = query.data?.rows;
  const rows = useMemo(() => {
    const list = fetched ?? [];
    return config.transformRows ? config.transformRows(list) : list;
  }, [fetched, config]);
  const count = query.data?.count ?? 0;

  // A page emptied by deletes steps back to the last page that has rows.
  const { setPage } = table;
  useEffect(() => {
    if (paged && fetched?.length === 0 && state.page > 1 && count > 0) setPage(Math.ceil(count / state.pageSize));
  }, [paged, fetched, state.page, state.pageSize, count, setPage]);

  const [dialog, setDialog] = useState<FormDialogState<Row>>();

  // A tree shows every branch open until the user folds one.
  const [expanded, setExpanded] = useState<readonly Key[]>();
  const branchKeys = useMemo(
    () =>
      config.tree
        ? flattenTree(rows as TreeRow<Row>[])
            .filter(({ row }) => (row as TreeRow<Row>).children?.length)
            .map(({ row }) => row.Id)
        : [],
    [rows, config.tree],
  );

  const removal = useMutation({
    mutationFn: (row: Row) => resource.remove(ctx, row.Id, row),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: resource.keys.all }),
  });

  const helpers: RowActionHelpers<Row> = {
    edit: (row) => {
      setDialog({ mode: 'edit', row });
    },
    create: (values) => {
      setDialog({ mode: 'create', preset: { ...createPreset, ...values } });
    },
    remove: (row) => {
      const name = config.rowName(row);
      void modal.confirm({
        title: t('resource.deleteTitle', { name }),
        content: t('resource.deleteHint'),
        okText: t('common.delete'),
        okButtonProps: { danger: true },
        cancelText: t('common.cancel'),
        onOk: async () => {
          try {
            const response = await removal.mutateAsync(row);
            void message.success(response.message || t('resource.deleted'));
          } catch (error) {
            void message.error(errorMessage(error));
          }
        },
      });
    },
  };

  // Row actions the table runs: shown to users who hold their permission, unless read-only.
  const { data: user } = useQuery(myInfoQueryOptions());
  const running = useMutation({
    mutationFn: ({ action, row }: { action: RowAction<Row>; row: Row }) => action.run(row, ctx),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: resource.keys.all }),
  });
  const runAction = (action: RowAction<Row>, row: Row) => {
    const go = async () => {
      try {
        const response = await running.mutateAsync({ action, row });
        void message.success(response.message || t(action.done));
      } catch (error) {
        void message.error(errorMessage(error));
      }
    };
    if (!action.confirm) {
      void go();
      return;
    }
    const values = { name: config.rowName(row), ...action.confirmValues?.(row) };
    void modal.confirm({
      title: t(action.confirm.title, values),
      content: action.confirm.content ? t(action.confirm.content, values) : undefined,
      okText: t(action.confirm.okText),
      okButtonProps: { danger: action.danger },
      cancelText: t('common.cancel'),
      onOk: go,
    });
  };
  const actionsFor = (row: Row) =>
    readOnlyProp
      ? []
      : (config.actions ?? []).filter(
          (action) =>
            (action.adminOnly ? user?.IsAdmin === true : mayOperate(user, action.operate ?? resource.operate)) &&
            (action.visible?.(row) ?? true),
        );

  const editable = !readOnly && form !== undefined && resource.canUpdate;
  const removable = !readOnly && resource.canRemove;
  const actionsOf = (row: Row): ReactNode => {
    const name = config.rowName(row);
    const extra = config.rowActions?.(row, helpers);
    const canEdit = editable && (config.canEdit?.(row) ?? true);
    const canDelete = removable && (config.canDelete?.(row) ?? true);
    return (
      <Space size={0} wrap>
        {extra}
        {actionsFor(row).map((action) => (
          <Button
            key={action.key}
            type="link"
            size="small"
            danger={action.danger}
            icon={action.icon}
            loading={running.isPending && running.variables.action === action && running.variables.row.Id === row.Id}
            aria-label={t(action.namedLabel, { name })}
            onClick={() => {
              runAction(action, row);
            }}
          >
            {t(action.label)}
          </Button>
        ))}
        {editable && (
          <Button
            type="link"
            size="small"
            icon={<EditOutlined aria-hidden />}
            disabled={!canEdit}
            aria-label={t('resource.editRow', { name })}
            onClick={() => {
              helpers.edit(row);
            }}
          >
            {t('common.edit')}
          </Button>
        )}
        {removable && (
          <Button
            type="link"
            size="small"
            danger
            icon={<DeleteOutlined aria-hidden />}
            disabled={!canDelete}
            aria-label={t('resource.deleteRow', { name })}
            onClick={() => {
              helpers.remove(row);
            }}
          >
            {t('common.delete')}
          </Button>
        )}
      </Space>
    );
  };
  const hasActions =
    editable || removable || config.rowActions !== undefined || (!readOnlyProp && (config.actions?.length ?? 0) > 0);

  const sortOrderOf = (column: ResourceColumn<Row>) => {
    if (!column.sortKey || state.sort?.key !== column.sortKey) return null;
    return state.sort.order === 'desc' ? ('descend' as const) : ('ascend' as const);
  };

  // Under 1024 px the table keeps its main columns (the secondary ones are on the wide table only).
  const columns: TableColumnsType<Row> = config.columns
    .filter((column) => !narrow || column.onCards !== false)
    .map((column) => ({
      key: column.key,
      title: t(column.title),
      onHeaderCell: () => ({ style: { whiteSpace: 'nowrap' } }),
      width: column.width ?? defaultWidth(column),
      // The tooltip is the cell's own (EllipsisText), not the browser's title.
      ellipsis: column.ellipsis ? { showTitle: false } : undefined,
      sorter: column.sortKey !== undefined,
      sortOrder: sortOrderOf(column),
      sortDirections: ['ascend', 'descend', 'ascend'],
      render: (_value: unknown, row: Row) => tableCellOf(column, row, choiceLabel),
    }));
  if (hasActions) {
    columns.push({
      key: 'actions',
      title: t('resource.actions'),
      fixed: 'right',
      render: (_value: unknown, row: Row) => actionsOf(row),
    });
  }

  const onTableChange: TableProps<Row>['onChange'] = (pagination, _filters, sorter, extra) => {
    if (extra.action === 'paginate') {
      table.setPage(pagination.current ?? 1, pagination.pageSize);
      return;
    }
    if (extra.action === 'sort') {
      const first = Array.isArray(sorter) ? sorter[0] : sorter;
      const column = config.columns.find((c) => c.key === first?.columnKey);
      const next: SortState | undefined =
        column?.sortKey && first?.order ? { key: column.sortKey, order: first.order === 'descend' ? 'desc' : 'asc' } : undefined;
      table.setSort(next);
    }
  };

  const searching = state.search !== '' || Object.values(state.filters).some((v) => v !== undefined && v !== '');

  // Rows in order by their sort number can be dragged (or moved with the arrow keys) into another.
  const reorder = useReorder({
    resource,
    ctx,
    rows,
    rowName: config.rowName,
    enabled:
      config.reorder !== false &&
      !readOnly &&
      !paged &&
      !config.tree &&
      !searching &&
      (state.sort === undefined || (state.sort.key === resource.reorderField && state.sort.order === 'asc')),
  });
  if (reorder.active) {
    columns.unshift({
      key: 'reorder',
      title: <span className="visually-hidden">{t('resource.order')}</span>,
      width: 48,
      render: (_value: unknown, row: Row) => reorder.handle(row),
    });
  }
  // In a workbench, an empty list says what it is for and how to fill it (add the first, or the guide's action).
  const guided = guide !== undefined && !searching;
  const mayAdd = !readOnly && form !== undefined && resource.canCreate;
  const empty = (
    <Empty
      image={Empty.PRESENTED_IMAGE_SIMPLE}
      description={
        searching
          ? t('resource.noMatch')
          : guided
            ? t(description !== undefined ? 'resource.emptyGuide' : 'resource.emptyGuideBare')
            : t(config.empty ?? 'common.empty')
      }
    >
      {guided && !readOnly && (
        <Flex gap={8} justify="center" wrap>
          {mayAdd && (
            <Button
              icon={<PlusOutlined aria-hidden />}
              onClick={() => {
                helpers.create();
              }}
            >
              {t(config.addLabel ?? 'common.add')}
            </Button>
          )}
          {guide.action}
        </Flex>
      )}
    </Empty>
  );
  // A failed call says so, with a retry, and is not also shown as an empty list.
  const loadError = query.isError ? <QueryError query={query} /> : null;
  const answered = !query.isPending && !query.isError;
  const loading = query.isFetching && (query.isPending || query.isPlaceholderData);

  const sortable = config.columns.filter((c) => c.sortKey);
  const HeadingTag = `h${String(headingLevel)}` as 'h1';

  const toolbar = (
    <Flex wrap gap={8} align="center" justify="space-between">
      {title !== undefined ? (
        <HeadingTag style={{ fontSize: headingLevel === 1 ? 20 : 16, fontWeight: 600, margin: 0 }}>{title}</HeadingTag>
      ) : (
        <span />
      )}
      <Flex wrap gap={8} align="center" style={{ flex: mobile ? '1 1 100%' : undefined }}>
        {config.search && (
          <Input
            allowClear
            value={text}
            onChange={(event) => {
              setText(event.target.value);
            }}
            prefix={<SearchOutlined aria-hidden />}
            placeholder={t(config.search.placeholder)}
            aria-label={t('resource.search')}
            style={{ width: mobile ? '100%' : 240 }}
            type="search"
          />
        )}
        {(config.filters ?? []).map((filter) => (
          <FilterControl key={filter.param} filter={filter} values={state.filters} onChange={table.setFilters} wide={mobile} />
        ))}
        {mobile && sortable.length > 0 && (
          <Select
            aria-label={t('resource.sortBy')}
            placeholder={t('resource.sortBy')}
            allowClear
            value={state.sort ? `${state.sort.key}:${state.sort.order}` : undefined}
            onChange={(value: string | undefined) => {
              const [key, order] = (value ?? '').split(':');
              table.setSort(key ? { key, order: order === 'desc' ? 'desc' : 'asc' } : undefined);
            }}
            options={sortable.flatMap((column) => [
              { value: `${column.sortKey ?? ''}:asc`, label: t('resource.sortAsc', { column: t(column.title) }) },
              { value: `${column.sortKey ?? ''}:desc`, label: t('resource.sortDesc', { column: t(column.title) }) },
            ])}
            style={{ minWidth: 160 }}
          />
        )}
        <Button
          icon={<ReloadOutlined aria-hidden />}
          aria-label={t('common.refresh')}
          title={t('common.refresh')}
          loading={query.isFetching && !loading}
          onClick={() => {
            void query.refetch();
          }}
        />
        {toolbarExtra}
        {!readOnly && form && resource.canCreate && (
          <Button
            type="primary"
            icon={<PlusOutlined aria-hidden />}
            onClick={() => {
              helpers.create();
            }}
          >
            {t(config.addLabel ?? 'common.add')}
          </Button>
        )}
      </Flex>
    </Flex>
  );

  const pagination = paged
    ? {
        current: state.page,
        pageSize: state.pageSize,
        total: count,
        showSizeChanger: true,
        pageSizeOptions: table.pageSizes,
        showTotal: (total: number) => t('resource.total', { count: total }),
        size: 'small' as const,
      }
    : false;

  const cards = (
    <Flex vertical gap={8} aria-busy={loading}>
      {rows.length === 0 && answered ? empty : null}
      {flattenTree(reorder.rows as TreeRow<Row>[]).map(({ row, depth }) => (
        <Card
          key={row.Id}
          size="small"
          title={config.rowName(row)}
          extra={reorder.handle(row)}
          style={{ marginInlineStart: depth * 16 }}
        >
          <Descriptions
            column={1}
            size="small"
            items={config.columns
              .filter((column) => column.onCards !== false)
              .map((column) => ({ key: column.key, label: t(column.title), children: cellOf(column, row, choiceLabel) }))}
          />
          {config.expandedRow && (
            <Collapse
              size="small"
              ghost
              items={[{ key: 'more', label: t(config.expandedRow.label), children: config.expandedRow.render(row) }]}
            />
          )}
          {hasActions && <div style={{ marginTop: 8 }}>{actionsOf(row)}</div>}
        </Card>
      ))}
      {pagination && count > 0 && (
        <Pagination
          {...pagination}
          onChange={(page, pageSize) => {
            table.setPage(page, pageSize);
          }}
          style={{ alignSelf: 'flex-end' }}
        />
      )}
    </Flex>
  );

  return (
    <Flex vertical gap={compact ? 8 : 16}>
      {toolbar}
      {description !== undefined && (
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          {description}
        </Typography.Paragraph>
      )}
      {beforeList}
      {loadError}
      {reorder.liveRegion}
      {mobile ? (
        cards
      ) : (
        <Table<Row>
          rowKey="Id"
          columns={columns}
          dataSource={reorder.rows}
          onRow={(row) => reorder.rowProps(row)}
          loading={loading}
          pagination={pagination}
          onChange={onTableChange}
          scroll={{ x: 'max-content' }}
          size={compact ? 'small' : 'middle'}
          locale={{ emptyText: answered ? empty : ' ' }}
          expandable={
            config.expandedRow
              ? {
                  expandedRowRender: config.expandedRow.render,
                  rowExpandable: () => true,
                }
              : config.tree
                ? {
                    expandedRowKeys: expanded ?? branchKeys,
                    onExpandedRowsChange: (keys) => {
                      setExpanded(keys);
                    },
                  }
                : undefined
          }
        />
      )}
      {form && (
        <ResourceFormDialog
          resource={resource}
          rowName={config.rowName}
          form={form}
          ctx={ctx}
          state={dialog}
          onClose={() => {
            setDialog(undefined);
          }}
        />
      )}
    </Flex>
  );
}
